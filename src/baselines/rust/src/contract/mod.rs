//! The wire contract of docs/contract.md, independent of HTTP: reading front-end request bodies (the classic
//! payload with its single-quoted inner document, typed events, JSON array and NDJSON batches), validation and
//! normalisation, the forward body, the back-end's re-check, and the problem+json errors. The rules follow the Go
//! baselines (src/baselines/go/contract) and the .NET implementation they follow: validation order, paths, limits
//! counted in UTF-16 code units, case-insensitive matching as OrdinalIgnoreCase.

pub mod document;
pub mod event;
pub mod forwarded;
pub mod json;
pub mod location;
pub mod mediatype;
pub mod problem;
pub mod relaxed;
pub mod request;
pub mod text;
pub mod timestamp;
pub mod validate;

pub use event::{forward_body, Event, EventType};
pub use forwarded::{forwarded_events, read_forwarded};
pub use location::Location;
pub use mediatype::{content_type_format, Format, JSON_MEDIA_TYPE, NDJSON_MEDIA_TYPE, TEXT_MEDIA_TYPE};
pub use problem::{Kind, Problem, PROBLEM_MEDIA_TYPE};
pub use request::{RequestReader, DEFAULT_MAX_BATCH_EVENTS};

#[cfg(test)]
mod tests;
