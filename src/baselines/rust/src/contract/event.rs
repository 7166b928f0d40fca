//! Validated, normalised events: what a front-end forwards and a back-end persists, and the forward body.

use std::borrow::Cow;

use super::text::{fold_equals, push_json_number, push_json_str};
use super::timestamp::{self, Ticks};

/// The kind of an event; on the wire a lower-case string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventType {
    Job = 0,
    Metric = 1,
    Log = 2,
}

impl EventType {
    /// Every type, in the order stats report them.
    pub const ALL: [EventType; 3] = [EventType::Job, EventType::Metric, EventType::Log];

    pub fn as_str(self) -> &'static str {
        match self {
            EventType::Job => "job",
            EventType::Metric => "metric",
            EventType::Log => "log",
        }
    }

    /// Reads a type name in any case (.NET's OrdinalIgnoreCase).
    pub fn parse(s: &str) -> Option<EventType> {
        EventType::ALL.iter().copied().find(|t| fold_equals(s, t.as_str()))
    }
}

/// A normalised event. Only the members of its type are meaningful; strings borrow from the request body
/// wherever they held no escape.
#[derive(Clone, Debug, PartialEq)]
pub struct Event<'a> {
    pub kind: EventType,
    pub source: Cow<'a, str>,
    pub timestamp: Ticks,
    pub received_at: Ticks,
    // Job.
    pub job_id: Cow<'a, str>,
    pub container_id: Option<Cow<'a, str>>,
    pub status: Cow<'a, str>,
    // Metric.
    pub name: Cow<'a, str>,
    pub value: f64,
    pub unit: Option<Cow<'a, str>>,
    // Log: one of the canonical lower-case levels.
    pub level: &'static str,
    pub message: Cow<'a, str>,
}

impl<'a> Event<'a> {
    pub fn new(kind: EventType, source: Cow<'a, str>, timestamp: Ticks, received_at: Ticks) -> Event<'a> {
        Event {
            kind,
            source,
            timestamp,
            received_at,
            job_id: Cow::Borrowed(""),
            container_id: None,
            status: Cow::Borrowed(""),
            name: Cow::Borrowed(""),
            value: 0.0,
            unit: None,
            level: "",
            message: Cow::Borrowed(""),
        }
    }

    /// The same event owning its strings.
    pub fn into_owned(self) -> Event<'static> {
        let own = |s: Cow<'_, str>| Cow::Owned(s.into_owned());
        Event {
            kind: self.kind,
            source: own(self.source),
            timestamp: self.timestamp,
            received_at: self.received_at,
            job_id: own(self.job_id),
            container_id: self.container_id.map(own),
            status: own(self.status),
            name: own(self.name),
            value: self.value,
            unit: self.unit.map(own),
            level: self.level,
            message: own(self.message),
        }
    }

    /// Appends the event as one JSON object: snake_case members in the contract's order, absent optional members
    /// omitted, only the type's own members.
    pub fn push_json(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"type\":\"");
        out.extend_from_slice(self.kind.as_str().as_bytes());
        out.extend_from_slice(b"\",\"source\":");
        push_json_str(out, &self.source);
        out.extend_from_slice(b",\"timestamp\":\"");
        timestamp::push_rfc3339(out, self.timestamp);
        out.extend_from_slice(b"\",\"received_at\":\"");
        timestamp::push_rfc3339(out, self.received_at);
        out.push(b'"');
        match self.kind {
            EventType::Job => {
                out.extend_from_slice(b",\"job_id\":");
                push_json_str(out, &self.job_id);
                if let Some(container_id) = &self.container_id {
                    out.extend_from_slice(b",\"container_id\":");
                    push_json_str(out, container_id);
                }
                out.extend_from_slice(b",\"status\":");
                push_json_str(out, &self.status);
            }
            EventType::Metric => {
                out.extend_from_slice(b",\"name\":");
                push_json_str(out, &self.name);
                out.extend_from_slice(b",\"value\":");
                push_json_number(out, self.value);
                if let Some(unit) = &self.unit {
                    out.extend_from_slice(b",\"unit\":");
                    push_json_str(out, unit);
                }
            }
            EventType::Log => {
                out.extend_from_slice(b",\"level\":\"");
                out.extend_from_slice(self.level.as_bytes());
                out.extend_from_slice(b"\",\"message\":");
                push_json_str(out, &self.message);
            }
        }
        out.push(b'}');
    }
}

/// The forward body: a JSON array of normalised events. Written by hand rather than through serde's derive so the
/// numbers are spelled exactly as the Go baselines spell them (serde_json's ryu writes 1.0 and 1e21 where Go
/// writes 1 and 1e+21) and the timestamps need no intermediate string.
pub fn forward_body(events: &[Event<'_>], size_hint: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(size_hint + 160 * events.len());
    out.push(b'[');
    for (i, e) in events.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        e.push_json(&mut out);
    }
    out.push(b']');
    out
}
