//! What both roles share around the contract: answers, the reference endpoints, methods, body reading, counters.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use hyper::body::{Bytes, HttpBody};
use hyper::header::{HeaderValue, ALLOW, CONNECTION, CONTENT_LENGTH, CONTENT_TYPE, RETRY_AFTER, SERVER};
use hyper::{Body, Method, Request, Response, StatusCode};
use serde_derive::Serialize;

use crate::contract::problem::{self, Problem};
use crate::contract::{JSON_MEDIA_TYPE, PROBLEM_MEDIA_TYPE, TEXT_MEDIA_TYPE};

/// The Server header of every answer (hyper sets Date itself, refreshed every second).
pub const SERVER_NAME: &str = "rust-hyper";
pub const HTML_MEDIA_TYPE: &str = "text/html; charset=utf-8";

pub const INGEST_EVENT_PATH: &str = "/ingest/event";
pub const INGEST_STATS_PATH: &str = "/ingest/stats";
pub const PLAINTEXT_PATH: &str = "/plaintext";
pub const JSON_PATH: &str = "/json";
pub const VALUES_PREFIX: &str = "/api/values/";
/// /api/values/{id} in answers, as the .NET route template names it.
pub const VALUES_ROUTE: &str = "/api/values/{id:int}";
pub const HEALTH_PATH: &str = "/healthz";
pub const ROOT_PATH: &str = "/";
pub const STATUS_PATH: &str = "/status";

/// The Allow value of every route: POST for the write endpoints, GET and HEAD for every other.
pub const READ_ALLOW: &str = "GET, HEAD";
pub const WRITE_ALLOW: &str = "POST";

pub const HELLO_TEXT: &str = "Hello, World!";
pub const HEALTHY_TEXT: &str = "Healthy";
pub const VALUE_TEXT: &str = "value";

/// The body of GET /json: a new one serialized per request, as TechEmpower's JSON test demands.
#[derive(Serialize)]
struct Hello {
    message: &'static str,
}

/// `{"accepted": n}` and `{"persisted": n}`.
#[derive(Serialize)]
pub struct Accepted {
    pub accepted: usize,
}

#[derive(Serialize)]
pub struct Persisted {
    pub persisted: usize,
}

/// An answer with a body: Server, Content-Type and Content-Length set (HEAD keeps them, hyper drops the body).
pub fn answer(status: StatusCode, content_type: &'static str, body: impl Into<Bytes>) -> Response<Body> {
    let body = body.into();
    let length = body.len();
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(SERVER, HeaderValue::from_static(SERVER_NAME));
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(CONTENT_LENGTH, HeaderValue::from(length));
    response
}

pub fn json<T: serde::Serialize>(value: &T) -> Response<Body> {
    answer(StatusCode::OK, JSON_MEDIA_TYPE, serde_json::to_vec(value).expect("answers always serialize"))
}

/// A problem+json answer, with Connection: close, Retry-After and Allow as the problem says.
pub fn problem(p: &Problem) -> Response<Body> {
    let status = StatusCode::from_u16(p.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = answer(status, PROBLEM_MEDIA_TYPE, p.to_json());
    let headers = response.headers_mut();
    if p.close {
        // The rest of the body was never read: the connection cannot carry another request.
        headers.insert(CONNECTION, HeaderValue::from_static("close"));
    }
    if p.retry_after > 0 {
        headers.insert(RETRY_AFTER, HeaderValue::from(p.retry_after));
    }
    if !p.allow.is_empty() {
        headers.insert(ALLOW, HeaderValue::from_static(p.allow));
    }
    response
}

/// Whether a route with this Allow value answers the method.
pub fn answers(allow: &str, method: &Method) -> bool {
    if allow == WRITE_ALLOW {
        method == Method::POST
    } else {
        method == Method::GET || method == Method::HEAD
    }
}

/// `None` when the route answers the request's method; the 405 otherwise.
pub fn check_method(req: &Request<Body>, route: &str, allow: &'static str) -> Option<Response<Body>> {
    if answers(allow, req.method()) {
        None
    } else {
        Some(problem(&problem::method_not_allowed(route, req.method().as_str(), allow)))
    }
}

/// ASP.NET Core's {id:int} route constraint: an optional sign and decimal digits that fit an int32.
pub fn is_int32(s: &str) -> bool {
    let (digits, limit) = match s.as_bytes().first() {
        Some(b'-') => (&s[1..], i64::from(i32::MAX) + 1),
        Some(b'+') => (&s[1..], i64::from(i32::MAX)),
        _ => (s, i64::from(i32::MAX)),
    };
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return false;
    }
    let mut n = 0i64;
    for c in digits.bytes() {
        n = n * 10 + i64::from(c - b'0');
        if n > limit {
            return false;
        }
    }
    true
}

/// The reference endpoints: /healthz on both roles; /plaintext, /json and /api/values/{id} on the front-end.
/// `None` when the path is none of them.
pub fn reference(req: &Request<Body>, front_end: bool) -> Option<Response<Body>> {
    let path = req.uri().path();
    let mut route = path;
    let (content_type, body): (&'static str, Bytes) = if path == HEALTH_PATH {
        (TEXT_MEDIA_TYPE, Bytes::from_static(HEALTHY_TEXT.as_bytes()))
    } else if !front_end {
        return None;
    } else if path == PLAINTEXT_PATH {
        (TEXT_MEDIA_TYPE, Bytes::from_static(HELLO_TEXT.as_bytes()))
    } else if path == JSON_PATH {
        let hello = serde_json::to_vec(&Hello { message: HELLO_TEXT }).expect("serializes");
        (JSON_MEDIA_TYPE, Bytes::from(hello))
    } else if path.starts_with(VALUES_PREFIX) && is_int32(&path[VALUES_PREFIX.len()..]) {
        route = VALUES_ROUTE;
        (TEXT_MEDIA_TYPE, Bytes::from_static(VALUE_TEXT.as_bytes()))
    } else {
        return None;
    };
    Some(check_method(req, route, READ_ALLOW).unwrap_or_else(|| answer(StatusCode::OK, content_type, body)))
}

/// The Content-Type header as text, for the 415's detail.
pub fn content_type_text(req: &Request<Body>) -> String {
    req.headers().get(CONTENT_TYPE).map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned()).unwrap_or_default()
}

/// Reads the whole request body, stopping as soon as it exceeds `max` bytes (413, refused on Content-Length alone
/// when that says so). A body that arrives in one piece is kept as it came, without a copy.
pub async fn read_body(body: Body, max: usize) -> Result<Bytes, Problem> {
    let declared = body.size_hint().exact();
    if declared.map_or(false, |n| n > max as u64) {
        return Err(problem::too_large(max));
    }
    let mut body = body;
    let first = match body.data().await {
        None => return Ok(Bytes::new()),
        Some(Err(e)) => return Err(problem::unreadable(&e)),
        Some(Ok(chunk)) => chunk,
    };
    if first.len() > max {
        return Err(problem::too_large(max));
    }
    let second = match body.data().await {
        None => return Ok(first),
        Some(Err(e)) => return Err(problem::unreadable(&e)),
        Some(Ok(chunk)) => chunk,
    };
    let capacity = declared.map_or(first.len() + second.len(), |n| n as usize).min(max + 1);
    let mut all = Vec::with_capacity(capacity);
    all.extend_from_slice(&first);
    let mut next = Some(second);
    while let Some(chunk) = next {
        if all.len() + chunk.len() > max {
            return Err(problem::too_large(max));
        }
        all.extend_from_slice(&chunk);
        next = match body.data().await {
            None => None,
            Some(Err(e)) => return Err(problem::unreadable(&e)),
            Some(Ok(chunk)) => Some(chunk),
        };
    }
    Ok(Bytes::from(all))
}

/// What the status page shows that hyper does not count: requests answered and errors by status.
#[derive(Default)]
pub struct Counters {
    requests: AtomicU64,
    /// By status (4xx, 5xx): rare, so under a lock.
    errors: Mutex<BTreeMap<u16, u64>>,
}

impl Counters {
    pub fn answered(&self, status: StatusCode) {
        self.requests.fetch_add(1, Ordering::Relaxed);
        if status.as_u16() >= 400 {
            *lock(&self.errors).entry(status.as_u16()).or_insert(0) += 1;
        }
    }

    /// `requests` and `errors.<status>`, in status order.
    pub fn facts(&self) -> Vec<(String, String)> {
        let mut facts = vec![(String::from("requests"), self.requests.load(Ordering::Relaxed).to_string())];
        for (status, n) in lock(&self.errors).iter() {
            facts.push((format!("errors.{}", status), n.to_string()));
        }
        facts
    }
}

/// Counters' locks guard plain numbers: a panic elsewhere cannot leave them inconsistent.
pub fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
