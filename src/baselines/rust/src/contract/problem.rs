//! The contract's error answers: one `Kind` per row of docs/contract.md's error table, and the problem+json body.

use serde_derive::Serialize;

/// The Content-Type of every error answer (RFC 9457).
pub const PROBLEM_MEDIA_TYPE: &str = "application/problem+json";

/// One row of the contract's error table: it fixes the status, the type URN and the title.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    EmptyBody,
    MalformedJson,
    InvalidField,
    MissingField,
    UnknownType,
    PayloadTooLarge,
    UnsupportedMediaType,
    BackEndFailed,
    BackEndTimeout,
    NotFound,
    Overloaded,
    MethodNotAllowed,
    /// Not sent by the Rust baseline: httparse refuses what it names (a header field name that is not a token) with
    /// hyper's own 400 before a handler runs. Kept so the table is the .NET services' own.
    MalformedRequest,
}

impl Kind {
    /// Status, type URN and title; the titles are the .NET services' word for word (clients may compare bodies).
    fn info(self) -> (u16, &'static str, &'static str) {
        match self {
            Kind::EmptyBody => (400, "urn:ingest:problem:empty-body", "The request has no events."),
            Kind::MalformedJson => (400, "urn:ingest:problem:malformed-json", "The body is not well-formed JSON."),
            Kind::InvalidField => (400, "urn:ingest:problem:invalid-field", "A field has an invalid value."),
            Kind::MissingField => (400, "urn:ingest:problem:missing-field", "A required field is missing."),
            Kind::UnknownType => (400, "urn:ingest:problem:unknown-type", "The event type is not known."),
            Kind::PayloadTooLarge => (413, "urn:ingest:problem:payload-too-large", "The request is too large."),
            Kind::UnsupportedMediaType => {
                (415, "urn:ingest:problem:unsupported-media-type", "The content type is not supported.")
            }
            Kind::BackEndFailed => (502, "urn:ingest:problem:backend-failed", "The back-end did not accept the events."),
            Kind::BackEndTimeout => (504, "urn:ingest:problem:backend-timeout", "The back-end did not answer in time."),
            Kind::NotFound => (404, "urn:ingest:problem:not-found", "There is nothing at this address."),
            Kind::Overloaded => (503, "urn:ingest:problem:overloaded", "The service is overloaded; retry later."),
            Kind::MethodNotAllowed => {
                (405, "urn:ingest:problem:method-not-allowed", "This address does not answer this method.")
            }
            Kind::MalformedRequest => (400, "urn:ingest:problem:malformed-request", "The request is not valid HTTP."),
        }
    }

    /// The HTTP status code.
    pub fn status(self) -> u16 {
        self.info().0
    }

    /// The problem type URN, e.g. `urn:ingest:problem:missing-field`.
    pub fn type_urn(self) -> &'static str {
        self.info().1
    }

    /// The fixed human-readable summary.
    pub fn title(self) -> &'static str {
        self.info().2
    }

    /// The URN's last part, e.g. `missing-field`.
    pub fn slug(self) -> &'static str {
        &self.type_urn()["urn:ingest:problem:".len()..]
    }
}

/// An error answer: a kind, a detail for humans and, when one member is at fault, its JSON path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub kind: Kind,
    pub detail: String,
    /// The JSON path of the member at fault (`$[3].job_id`).
    pub field: Option<String>,
    /// The Retry-After header's value in seconds; 0 when the answer carries none.
    pub retry_after: u32,
    /// The Allow header's value of a 405 (RFC 9110 §15.5.6); empty otherwise.
    pub allow: &'static str,
    /// Whether the connection cannot carry another request after this answer (the body was not read to its end):
    /// always for 413, and for a body whose framing broke.
    pub close: bool,
}

/// The problem+json body in the order the .NET services write it; `field` only when set.
#[derive(Serialize)]
struct ProblemBody<'a> {
    #[serde(rename = "type")]
    type_urn: &'static str,
    title: &'static str,
    status: u16,
    detail: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    field: Option<&'a str>,
}

impl Problem {
    pub fn new(kind: Kind, detail: impl Into<String>, field: Option<String>) -> Problem {
        Problem { kind, detail: detail.into(), field, retry_after: 0, allow: "", close: kind == Kind::PayloadTooLarge }
    }

    pub fn status(&self) -> u16 {
        self.kind.status()
    }

    /// The problem+json body.
    pub fn to_json(&self) -> Vec<u8> {
        let body = ProblemBody {
            type_urn: self.kind.type_urn(),
            title: self.kind.title(),
            status: self.kind.status(),
            detail: &self.detail,
            field: self.field.as_deref(),
        };
        serde_json::to_vec(&body).expect("a problem body always serializes")
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.field {
            Some(field) => write!(f, "{} at {}: {}", self.kind.slug(), field, self.detail),
            None => write!(f, "{}: {}", self.kind.slug(), self.detail),
        }
    }
}

/// A body over the byte limit.
pub fn too_large(max_bytes: usize) -> Problem {
    Problem::new(Kind::PayloadTooLarge, format!("The body is larger than {} bytes.", max_bytes), None)
}

/// A Content-Type the endpoint does not take; `accepted` names what it takes.
pub fn unsupported(content_type: &str, accepted: &str) -> Problem {
    Problem::new(
        Kind::UnsupportedMediaType,
        format!("Content-Type '{}' is not accepted: send {}.", content_type, accepted),
        None,
    )
}

/// A path no endpoint serves.
pub fn not_found() -> Problem {
    Problem::new(Kind::NotFound, "No endpoint answers this method and path.", None)
}

/// A route that exists, asked with a method it does not answer; `allow` names the ones it does.
pub fn method_not_allowed(route: &str, method: &str, allow: &'static str) -> Problem {
    let mut p = Problem::new(
        Kind::MethodNotAllowed,
        format!("{} does not answer {}; it answers {}.", route, method, allow),
        None,
    );
    p.allow = allow;
    p
}

/// A body whose framing broke off (a reset, bad chunking), as the .NET services answer it.
pub fn unreadable(error: &dyn std::fmt::Display) -> Problem {
    let mut p = Problem::new(Kind::MalformedJson, format!("The request body could not be read: {}.", error), None);
    p.close = true;
    p
}

/// A back-end that answered a status other than 2xx (502), or 503 (its store is down or it sheds load: 503
/// overloaded, with its Retry-After passed on, 1 s when it sent none or no number of seconds).
pub fn backend_answered(backend: &str, status: u16, retry_after: Option<&[u8]>) -> Problem {
    if status == 503 {
        let mut p = Problem::new(
            Kind::Overloaded,
            format!("The back-end {} is unavailable (its store is down or it sheds load).", backend),
            None,
        );
        p.retry_after = retry_after
            .and_then(|v| std::str::from_utf8(v).ok())
            .and_then(|v| v.parse::<u32>().ok())
            .filter(|&s| s > 1)
            .unwrap_or(1);
        return p;
    }
    Problem::new(Kind::BackEndFailed, format!("The back-end {} answered {}.", backend, status), None)
}

/// A back-end that refused the connection or could not be connected to: nothing reached it.
pub fn backend_unreachable(backend: &str, error: &dyn std::fmt::Display) -> Problem {
    Problem::new(Kind::BackEndFailed, format!("The back-end {} could not be reached: {}.", backend, error), None)
}

/// A back-end that did not answer within the timeout.
pub fn backend_timed_out(backend: &str, timeout_ms: u64) -> Problem {
    Problem::new(
        Kind::BackEndTimeout,
        format!("The back-end {} did not answer within {} ms.", backend, timeout_ms),
        None,
    )
}

/// A forward whose answer was lost after the request went out (the connection reset or closed mid-answer): the
/// back-end may have persisted it, so the outcome is open (docs/contract.md: 504).
pub fn backend_answer_lost(backend: &str, error: &dyn std::fmt::Display) -> Problem {
    Problem::new(
        Kind::BackEndTimeout,
        format!("The answer of the back-end {} was lost: {}; it may have persisted the events.", backend, error),
        None,
    )
}
