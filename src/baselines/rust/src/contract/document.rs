//! One event object as a client or a front-end sent it, before validation: every member optional, only its JSON
//! type checked. Validation (validate.rs) decides what is required.

use std::borrow::Cow;

use super::json::{ReadResult, Reader};
use super::problem::Kind;
use super::timestamp::{self, Ticks};

/// Which members a document may carry: an incoming event has `data` (the classic payload), a forwarded one
/// `received_at`. Members outside the schema are ignored like any unknown member.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Schema {
    Incoming,
    Forwarded,
}

/// The members read; JSON null counts as absent, as in the .NET services.
#[derive(Default)]
pub struct Document<'a> {
    pub data: Option<Cow<'a, str>>,
    pub typ: Option<Cow<'a, str>>,
    pub source: Option<Cow<'a, str>>,
    pub timestamp: Option<Ticks>,
    pub received_at: Option<Ticks>,
    pub job_id: Option<Cow<'a, str>>,
    pub container_id: Option<Cow<'a, str>>,
    pub status: Option<Cow<'a, str>>,
    pub name: Option<Cow<'a, str>>,
    pub value: Option<f64>,
    pub unit: Option<Cow<'a, str>>,
    pub level: Option<Cow<'a, str>>,
    pub message: Option<Cow<'a, str>>,
}

/// A member the schema reads, numbered for the "named twice" check.
#[derive(Clone, Copy)]
enum Member {
    Data,
    Type,
    Source,
    Timestamp,
    ReceivedAt,
    JobId,
    ContainerId,
    Status,
    Name,
    Value,
    Unit,
    Level,
    Message,
}

fn member(name: &[u8], schema: Schema) -> Option<Member> {
    Some(match name {
        b"type" => Member::Type,
        b"source" => Member::Source,
        b"timestamp" => Member::Timestamp,
        b"job_id" => Member::JobId,
        b"container_id" => Member::ContainerId,
        b"status" => Member::Status,
        b"name" => Member::Name,
        b"value" => Member::Value,
        b"unit" => Member::Unit,
        b"level" => Member::Level,
        b"message" => Member::Message,
        b"data" if schema == Schema::Incoming => Member::Data,
        b"received_at" if schema == Schema::Forwarded => Member::ReceivedAt,
        _ => return None,
    })
}

impl<'a> Reader<'a> {
    /// Reads the event object at the current position into `doc`: `Ok(true)` for JSON null (no object); any other
    /// non-object value is invalid-field at the event's root. Member names are case-sensitive; an object naming a
    /// member it reads twice is invalid-field at that member (docs/contract.md; .NET refuses duplicates too).
    pub fn read_document(&mut self, doc: &mut Document<'a>, schema: Schema) -> ReadResult<bool> {
        self.skip_ws();
        match self.peek() {
            b'{' => {}
            b'n' => return self.scan_literal("null").map(|_| true),
            _ => return Err(self.wrong_type("an event object")),
        }
        self.enter()?;
        self.skip_ws();
        if self.peek() == b'}' {
            self.leave();
            return Ok(false);
        }
        let mut seen = 0u16;
        let mut previous: Option<Cow<'a, str>> = None;
        loop {
            if self.peek() != b'"' {
                let err = self.syntax("expected a member name");
                // After a comma: name the member before it.
                return Err(match &previous {
                    Some(name) => err.in_member(name),
                    None => err,
                });
            }
            let (start, end, escaped) = self.scan_string()?;
            let name: Cow<'a, str> = if escaped {
                // Rare: unescaped, so "job\u005fid" still matches job_id.
                Cow::Owned(String::from_utf8_lossy(&super::json::unescape(&self.buf[start..end]).0).into_owned())
            } else {
                String::from_utf8_lossy(&self.buf[start..end])
            };
            self.skip_ws();
            if self.peek() != b':' {
                return Err(self.syntax("expected ':' after a member name"));
            }
            self.pos += 1;
            self.skip_ws();
            let read = match member(name.as_bytes(), schema) {
                Some(m) => {
                    let bit = 1u16 << (m as u16);
                    if seen & bit != 0 {
                        let at = self.pos;
                        return Err(self.fail(Kind::InvalidField, at, "the member is named twice").in_member(&name));
                    }
                    seen |= bit;
                    self.read_member(doc, m)
                }
                None => self.skip_value(),
            };
            if let Err(err) = read {
                return Err(err.in_member(&name));
            }
            self.skip_ws();
            match self.peek() {
                b',' => {
                    self.pos += 1;
                    self.skip_ws();
                }
                b'}' => {
                    self.leave();
                    return Ok(false);
                }
                _ => return Err(self.syntax("expected ',' or '}' after a member").in_member(&name)),
            }
            previous = Some(name);
        }
    }

    fn read_member(&mut self, doc: &mut Document<'a>, m: Member) -> ReadResult<()> {
        match m {
            Member::Data => self.read_string(&mut doc.data),
            Member::Type => self.read_string(&mut doc.typ),
            Member::Source => self.read_string(&mut doc.source),
            Member::Timestamp => self.read_time(&mut doc.timestamp),
            Member::ReceivedAt => self.read_time(&mut doc.received_at),
            Member::JobId => self.read_string(&mut doc.job_id),
            Member::ContainerId => self.read_string(&mut doc.container_id),
            Member::Status => self.read_string(&mut doc.status),
            Member::Name => self.read_string(&mut doc.name),
            Member::Value => self.read_float(&mut doc.value),
            Member::Unit => self.read_string(&mut doc.unit),
            Member::Level => self.read_string(&mut doc.level),
            Member::Message => self.read_string(&mut doc.message),
        }
    }

    fn read_string(&mut self, dst: &mut Option<Cow<'a, str>>) -> ReadResult<()> {
        match self.peek() {
            b'"' => {
                let at = self.pos;
                let (start, end, escaped) = self.scan_string()?;
                match self.string_value(start, end, escaped) {
                    Some(value) => {
                        *dst = Some(value);
                        Ok(())
                    }
                    None => Err(self.fail(
                        Kind::InvalidField,
                        at,
                        "the string is not valid UTF-8 or holds a lone surrogate",
                    )),
                }
            }
            b'n' => {
                *dst = None;
                self.scan_literal("null")
            }
            _ => Err(self.wrong_type("a string")),
        }
    }

    fn read_time(&mut self, dst: &mut Option<Ticks>) -> ReadResult<()> {
        match self.peek() {
            b'"' => {
                let at = self.pos;
                let mut text = None;
                self.read_string(&mut text)?;
                match text.as_deref().and_then(timestamp::parse) {
                    Some(t) => {
                        *dst = Some(t);
                        Ok(())
                    }
                    None => Err(self.fail(Kind::InvalidField, at, "expected an RFC 3339 date-time with offset")),
                }
            }
            b'n' => {
                *dst = None;
                self.scan_literal("null")
            }
            _ => Err(self.wrong_type("an RFC 3339 date-time string")),
        }
    }

    fn read_float(&mut self, dst: &mut Option<f64>) -> ReadResult<()> {
        match self.peek() {
            b'-' | b'0'..=b'9' => {
                let (start, end) = self.scan_number()?;
                // The token is ASCII and matches the JSON grammar, which Rust's float parser accepts whole.
                let text = std::str::from_utf8(&self.buf[start..end]).unwrap_or("x");
                match text.parse::<f64>() {
                    Ok(v) if v.is_finite() => {
                        *dst = Some(v);
                        Ok(())
                    }
                    _ => Err(self.fail(Kind::InvalidField, start, "the number is out of range")),
                }
            }
            b'n' => {
                *dst = None;
                self.scan_literal("null")
            }
            _ => Err(self.wrong_type("a number")),
        }
    }
}
