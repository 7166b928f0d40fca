//! Validation and normalisation, in the .NET validator's order, so the same input names the same problem.

use std::borrow::Cow;

use super::document::{Document, Schema};
use super::event::{Event, EventType};
use super::json::Reader;
use super::location::Location;
use super::problem::{Kind, Problem};
use super::relaxed;
use super::text::{fold_equals, is_blank, longer_than};
use super::timestamp::Ticks;

/// Bounds identifier-like strings: source, job_id, container_id, name, unit.
pub const MAX_IDENTIFIER_LENGTH: usize = 256;
/// Bounds free text: status, message and the classic inner document.
pub const MAX_TEXT_LENGTH: usize = 4096;
/// The source every classic payload is attributed to.
pub const CLASSIC_SOURCE: &str = "classic";

/// The canonical log levels; a level is normalised to one of these.
const LEVELS: [&str; 6] = ["trace", "debug", "info", "warn", "error", "fatal"];

/// Validates one incoming event (`null`: the document was JSON null) and normalises it.
pub fn normalize<'a>(doc: Document<'a>, null: bool, loc: Location, received_at: Ticks) -> Result<Event<'a>, Problem> {
    if null {
        return Err(Problem::new(Kind::InvalidField, "An event must be a JSON object.", Some(loc.root())));
    }
    match doc.data {
        Some(data) => normalize_classic(&data, loc, received_at),
        None => normalize_typed(doc, loc, received_at),
    }
}

fn normalize_classic<'a>(data: &str, loc: Location, received_at: Ticks) -> Result<Event<'a>, Problem> {
    let inner = loc.inner();
    if longer_than(data, MAX_TEXT_LENGTH) {
        return Err(Problem::new(
            Kind::InvalidField,
            format!("The inner document is longer than {} characters.", MAX_TEXT_LENGTH),
            Some(inner.root()),
        ));
    }
    let rewritten;
    let strict: &[u8] = if relaxed::needs_rewrite(data) {
        rewritten = relaxed::relaxed_to_strict(data).ok_or_else(|| {
            Problem::new(Kind::MalformedJson, "A string in the inner document is not terminated.", Some(inner.root()))
        })?;
        &rewritten
    } else {
        data.as_bytes()
    };

    let mut r = Reader::new(strict);
    let mut d = Document::default();
    let null = r.read_document(&mut d, Schema::Incoming).and_then(|null| r.expect_end().map(|_| null));
    let null = null.map_err(|e| e.problem(inner))?;
    if null {
        return Err(Problem::new(Kind::InvalidField, "The inner document must be a JSON object.", Some(inner.root())));
    }
    check_job(&d, inner)?;
    // The inner strings live in the rewritten document, which ends here: the event owns copies.
    let owned = |s: Option<Cow<'_, str>>| s.map(|s| Cow::Owned(s.into_owned()));
    let mut e = Event::new(EventType::Job, Cow::Borrowed(CLASSIC_SOURCE), received_at, received_at);
    e.job_id = owned(d.job_id).unwrap_or_default();
    e.container_id = owned(d.container_id);
    e.status = owned(d.status).unwrap_or_default();
    Ok(e)
}

/// Normalises a typed event; also reads a forwarded event back for the back-end's status page.
pub fn normalize_typed<'a>(d: Document<'a>, loc: Location, received_at: Ticks) -> Result<Event<'a>, Problem> {
    let kind = match &d.typ {
        None => {
            return Err(Problem::new(
                Kind::MissingField,
                "Every event needs 'type' (job, metric or log), or 'data' for the classic payload.",
                Some(loc.member("type")),
            ))
        }
        Some(t) => EventType::parse(t)
            .ok_or_else(|| Problem::new(Kind::UnknownType, "'type' must be job, metric or log.", Some(loc.member("type"))))?,
    };
    check_common(&d, loc)?;
    let level = match kind {
        EventType::Job => check_job(&d, loc).map(|_| "")?,
        EventType::Metric => check_metric(&d, loc).map(|_| "")?,
        EventType::Log => check_log(&d, loc)?,
    };
    let source = match d.source {
        Some(Cow::Borrowed(s)) => Cow::Borrowed(s.trim()),
        Some(Cow::Owned(s)) if s.trim().len() == s.len() => Cow::Owned(s),
        Some(Cow::Owned(s)) => Cow::Owned(s.trim().to_owned()),
        None => Cow::Borrowed(""),
    };
    let mut e = Event::new(kind, source, d.timestamp.unwrap_or_default(), received_at);
    match kind {
        EventType::Job => {
            e.job_id = d.job_id.unwrap_or_default();
            e.container_id = d.container_id;
            e.status = d.status.unwrap_or_default();
        }
        EventType::Metric => {
            e.name = d.name.unwrap_or_default();
            e.value = d.value.unwrap_or_default();
            e.unit = d.unit;
        }
        EventType::Log => {
            e.level = level;
            e.message = d.message.unwrap_or_default();
        }
    }
    Ok(e)
}

/// Re-checks an event a back-end received: the front-end normalised it, but the back-end trusts no caller.
pub fn check_forwarded(d: &Document<'_>, null: bool, loc: Location) -> Result<EventType, Problem> {
    if null {
        return Err(Problem::new(Kind::InvalidField, "An event must be a JSON object.", Some(loc.root())));
    }
    let kind = match &d.typ {
        None => return Err(Problem::new(Kind::MissingField, "'type' is required for every event.", Some(loc.member("type")))),
        Some(t) => EventType::parse(t).ok_or_else(|| {
            Problem::new(Kind::UnknownType, "The event type is not job, metric or log.", Some(loc.member("type")))
        })?,
    };
    check_common(d, loc)?;
    match kind {
        EventType::Job => check_job(d, loc)?,
        EventType::Metric => check_metric(d, loc)?,
        EventType::Log => {
            check_log(d, loc)?;
        }
    }
    Ok(kind)
}

fn check_common(d: &Document<'_>, loc: Location) -> Result<(), Problem> {
    check_text(&d.source, "source", MAX_IDENTIFIER_LENGTH, loc, true, "every event")?;
    match d.timestamp {
        None => Err(missing("timestamp", "every event", loc)),
        // The .NET services cannot tell 0001-01-01T00:00:00Z from an absent time: refused alike (docs/contract.md).
        Some(0) => Err(Problem::new(
            Kind::InvalidField,
            "'timestamp' must be later than 0001-01-01T00:00:00Z.",
            Some(loc.member("timestamp")),
        )),
        Some(_) => Ok(()),
    }
}

fn check_job(d: &Document<'_>, loc: Location) -> Result<(), Problem> {
    check_text(&d.job_id, "job_id", MAX_IDENTIFIER_LENGTH, loc, true, "a job event")?;
    check_text(&d.status, "status", MAX_TEXT_LENGTH, loc, false, "a job event")?;
    check_optional(&d.container_id, "container_id", MAX_IDENTIFIER_LENGTH, loc)
}

fn check_metric(d: &Document<'_>, loc: Location) -> Result<(), Problem> {
    check_text(&d.name, "name", MAX_IDENTIFIER_LENGTH, loc, true, "a metric event")?;
    match d.value {
        None => return Err(missing("value", "a metric event", loc)),
        Some(v) if !v.is_finite() => {
            return Err(Problem::new(Kind::InvalidField, "'value' must be a finite number.", Some(loc.member("value"))))
        }
        Some(_) => {}
    }
    check_optional(&d.unit, "unit", MAX_IDENTIFIER_LENGTH, loc)
}

fn check_log(d: &Document<'_>, loc: Location) -> Result<&'static str, Problem> {
    let level = match &d.level {
        None => return Err(missing("level", "a log event", loc)),
        Some(level) => LEVELS.iter().copied().find(|known| fold_equals(level, known)).ok_or_else(|| {
            Problem::new(
                Kind::InvalidField,
                "'level' must be one of trace, debug, info, warn, error, fatal.",
                Some(loc.member("level")),
            )
        })?,
    };
    check_text(&d.message, "message", MAX_TEXT_LENGTH, loc, false, "a log event")?;
    Ok(level)
}

fn check_text(
    v: &Option<Cow<'_, str>>,
    name: &str,
    max: usize,
    loc: Location,
    non_empty: bool,
    required_for: &str,
) -> Result<(), Problem> {
    match v {
        None => Err(missing(name, required_for, loc)),
        Some(s) if non_empty && is_blank(s) => {
            Err(Problem::new(Kind::InvalidField, format!("'{}' must not be empty.", name), Some(loc.member(name))))
        }
        Some(_) => check_optional(v, name, max, loc),
    }
}

fn check_optional(v: &Option<Cow<'_, str>>, name: &str, max: usize, loc: Location) -> Result<(), Problem> {
    match v {
        Some(s) if longer_than(s, max) => Err(Problem::new(
            Kind::InvalidField,
            format!("'{}' is longer than {} characters.", name, max),
            Some(loc.member(name)),
        )),
        // As the .NET services: most stores cannot keep a NUL, so it is never acknowledged, escaped or not.
        Some(s) if s.as_bytes().contains(&0) => Err(Problem::new(
            Kind::InvalidField,
            format!("'{}' contains a NUL character (U+0000).", name),
            Some(loc.member(name)),
        )),
        _ => Ok(()),
    }
}

fn missing(name: &str, required_for: &str, loc: Location) -> Problem {
    Problem::new(Kind::MissingField, format!("'{}' is required for {}.", name, required_for), Some(loc.member(name)))
}
