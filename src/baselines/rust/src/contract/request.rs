//! Front-end request bodies: batches split (JSON array or NDJSON), each event read, validated and normalised. All
//! or nothing: one invalid event refuses the request, so nothing of it is forwarded.

use super::document::{Document, Schema};
use super::event::Event;
use super::json::Reader;
use super::location::Location;
use super::mediatype::Format;
use super::problem::{Kind, Problem};
use super::timestamp::Ticks;
use super::validate::normalize;

/// The most events one request may carry unless configured otherwise.
pub const DEFAULT_MAX_BATCH_EVENTS: usize = 1000;

#[derive(Clone, Copy, Debug)]
pub struct RequestReader {
    /// The most events a request may hold; more is 413.
    pub max_batch_events: usize,
}

impl RequestReader {
    /// Appends the body's events to `events`, each stamped received at `received_at`, or returns the problem that
    /// refuses the whole request.
    pub fn read<'a>(
        &self,
        body: &'a [u8],
        format: Format,
        received_at: Ticks,
        events: &mut Vec<Event<'a>>,
    ) -> Result<(), Problem> {
        let body = trim_body(body);
        if body.is_empty() {
            return Err(Problem::new(Kind::EmptyBody, "The body is empty.", None));
        }
        match format {
            Format::Ndjson => self.read_ndjson(body, received_at, events),
            Format::Json if body[0] == b'[' => self.read_array(body, received_at, events),
            Format::Json => read_one(body, Location::whole_body(), received_at, events),
        }
    }

    /// A JSON array batch. The .NET services first read the whole array (so a JSON error anywhere wins), then check
    /// the count, then validate event by event; this reads once and reports in that same order.
    fn read_array<'a>(&self, body: &'a [u8], received_at: Ticks, events: &mut Vec<Event<'a>>) -> Result<(), Problem> {
        let mut r = Reader::new(body);
        r.enter().map_err(|e| e.problem(Location::whole_body()))?; // depth 0: cannot fail
        r.skip_ws();
        let mut count = 0;
        let mut invalid: Option<Problem> = None; // the first validation problem, reported only if the JSON reads
        if r.peek() == b']' {
            r.leave();
        } else {
            loop {
                let mut d = Document::default();
                let null = r.read_document(&mut d, Schema::Incoming).map_err(|e| e.problem(Location::item(count)))?;
                if invalid.is_none() && count < self.max_batch_events {
                    match normalize(d, null, Location::item(count), received_at) {
                        Ok(e) => events.push(e),
                        Err(p) => invalid = Some(p),
                    }
                }
                r.skip_ws();
                match r.peek() {
                    b']' => {
                        r.leave();
                        count += 1;
                        break;
                    }
                    b',' => r.pos += 1,
                    _ => {
                        return Err(r
                            .syntax("expected ',' or ']' after an array element")
                            .problem(Location::item(count)))
                    }
                }
                count += 1;
            }
        }
        r.expect_end().map_err(|e| e.problem(Location::whole_body()))?;
        if count == 0 {
            return Err(Problem::new(Kind::EmptyBody, "The batch holds no events.", None));
        }
        if count > self.max_batch_events {
            return Err(self.too_many_events());
        }
        match invalid {
            Some(p) => Err(p),
            None => Ok(()),
        }
    }

    /// One event per line; blank lines are skipped and not counted.
    fn read_ndjson<'a>(&self, body: &'a [u8], received_at: Ticks, events: &mut Vec<Event<'a>>) -> Result<(), Problem> {
        let mut index = 0;
        for line in body.split(|&c| c == b'\n') {
            let line = trim_body(line);
            if line.is_empty() {
                continue;
            }
            if index == self.max_batch_events {
                return Err(self.too_many_events());
            }
            read_one(line, Location::item(index), received_at, events)?;
            index += 1;
        }
        if index == 0 {
            return Err(Problem::new(Kind::EmptyBody, "The body holds only blank lines.", None));
        }
        Ok(())
    }

    fn too_many_events(&self) -> Problem {
        Problem::new(
            Kind::PayloadTooLarge,
            format!("A batch may hold at most {} events.", self.max_batch_events),
            None,
        )
    }
}

fn read_one<'a>(json: &'a [u8], loc: Location, received_at: Ticks, events: &mut Vec<Event<'a>>) -> Result<(), Problem> {
    let mut r = Reader::new(json);
    let mut d = Document::default();
    let null = r
        .read_document(&mut d, Schema::Incoming)
        .and_then(|null| r.expect_end().map(|_| null))
        .map_err(|e| e.problem(loc))?;
    events.push(normalize(d, null, loc, received_at)?);
    Ok(())
}

/// Drops a UTF-8 byte order mark and JSON white space at the start, and JSON white space at the end.
pub fn trim_body(b: &[u8]) -> &[u8] {
    let b = b.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(b);
    let is_space = |c: &u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r');
    let start = b.iter().position(|c| !is_space(c)).unwrap_or(b.len());
    let end = b.iter().rposition(|c| !is_space(c)).map_or(start, |i| i + 1);
    &b[start..end]
}
