//! The back-end's side: re-checking a forward body, and reading one back for the status page.

use super::document::{Document, Schema};
use super::event::{Event, EventType};
use super::json::Reader;
use super::location::Location;
use super::problem::{Kind, Problem};
use super::request::trim_body;
use super::validate::{check_forwarded, normalize_typed};

/// Reads a back-end request body — a JSON array of normalised events, or a single one — re-checking every event's
/// type and required members, and appends the types in order to `types`. All or nothing.
pub fn read_forwarded(body: &[u8], types: &mut Vec<EventType>) -> Result<(), Problem> {
    let body = trim_body(body);
    if body.is_empty() {
        return Err(Problem::new(Kind::EmptyBody, "The body is empty.", None));
    }
    let mut r = Reader::new(body);
    if body[0] != b'[' {
        let loc = Location::whole_body();
        let mut d = Document::default();
        let null = r
            .read_document(&mut d, Schema::Forwarded)
            .and_then(|null| r.expect_end().map(|_| null))
            .map_err(|e| e.problem(loc))?;
        types.push(check_forwarded(&d, null, loc)?);
        return Ok(());
    }

    // As on the front-end: JSON errors anywhere come before validation problems.
    r.enter().map_err(|e| e.problem(Location::whole_body()))?;
    r.skip_ws();
    let mut count = 0;
    let mut invalid: Option<Problem> = None;
    if r.peek() == b']' {
        r.leave();
    } else {
        loop {
            let mut d = Document::default();
            let null = r.read_document(&mut d, Schema::Forwarded).map_err(|e| e.problem(Location::item(count)))?;
            if invalid.is_none() {
                match check_forwarded(&d, null, Location::item(count)) {
                    Ok(t) => types.push(t),
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
                    return Err(r.syntax("expected ',' or ']' after an array element").problem(Location::item(count)))
                }
            }
            count += 1;
        }
    }
    r.expect_end().map_err(|e| e.problem(Location::whole_body()))?;
    if count == 0 {
        return Err(Problem::new(Kind::EmptyBody, "The batch holds no events.", None));
    }
    match invalid {
        Some(p) => Err(p),
        None => Ok(()),
    }
}

/// Reads a forward body that `read_forwarded` accepted into whole events, for display; events that do not read
/// are left out.
pub fn forwarded_events(body: &[u8]) -> Vec<Event<'static>> {
    let body = trim_body(body);
    let mut events = Vec::new();
    if body.is_empty() {
        return events;
    }
    let mut r = Reader::new(body);
    if body[0] != b'[' {
        read_one(&mut r, &mut events);
        return events;
    }
    if r.enter().is_err() {
        return events;
    }
    loop {
        r.skip_ws();
        if r.peek() == b']' || !read_one(&mut r, &mut events) {
            return events;
        }
        r.skip_ws();
        if r.peek() != b',' {
            return events;
        }
        r.pos += 1;
    }
}

/// One event of `forwarded_events`; false when the JSON does not read on.
fn read_one(r: &mut Reader<'_>, events: &mut Vec<Event<'static>>) -> bool {
    let mut d = Document::default();
    match r.read_document(&mut d, Schema::Forwarded) {
        Err(_) => false,
        Ok(null) => {
            if !null {
                let received_at = d.received_at.unwrap_or_default();
                if let Ok(e) = normalize_typed(d, Location::whole_body(), received_at) {
                    events.push(e.into_owned());
                }
            }
            true
        }
    }
}
