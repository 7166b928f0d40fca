//! Content-Type values of the contract.

pub const JSON_MEDIA_TYPE: &str = "application/json";
pub const NDJSON_MEDIA_TYPE: &str = "application/x-ndjson";
pub const TEXT_MEDIA_TYPE: &str = "text/plain";

/// How a request body holds its events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// application/json: one event object or a JSON array of them.
    Json,
    /// application/x-ndjson: one event object per line.
    Ndjson,
}

/// Reads a Content-Type value: application/json or application/x-ndjson in any case, with parameters, as long as
/// the first charset parameter (if any) names UTF-8. `None` is unsupported (415).
pub fn content_type_format(content_type: &[u8]) -> Option<Format> {
    let (media_type, params) = match content_type.iter().position(|&c| c == b';') {
        Some(i) => (&content_type[..i], Some(&content_type[i + 1..])),
        None => (content_type, None),
    };
    let media_type = trim_ows(media_type);
    let format = if media_type.eq_ignore_ascii_case(JSON_MEDIA_TYPE.as_bytes()) {
        Format::Json
    } else if media_type.eq_ignore_ascii_case(NDJSON_MEDIA_TYPE.as_bytes()) {
        Format::Ndjson
    } else {
        return None;
    };
    match params {
        Some(params) if !charset_is_utf8(params) => None,
        _ => Some(format),
    }
}

/// Looks at the first charset parameter of a `;`-separated list; none means UTF-8.
fn charset_is_utf8(params: &[u8]) -> bool {
    for param in params.split(|&c| c == b';') {
        let eq = match param.iter().position(|&c| c == b'=') {
            Some(eq) => eq,
            None => continue,
        };
        if !trim_ows(&param[..eq]).eq_ignore_ascii_case(b"charset") {
            continue;
        }
        let mut value = trim_ows(&param[eq + 1..]);
        while let [b'"', rest @ ..] = value {
            value = rest;
        }
        while let [rest @ .., b'"'] = value {
            value = rest;
        }
        return value.eq_ignore_ascii_case(b"utf-8") || value.eq_ignore_ascii_case(b"utf8");
    }
    true
}

fn trim_ows(mut s: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] = s {
        s = rest;
    }
    while let [rest @ .., b' ' | b'\t'] = s {
        s = rest;
    }
    s
}
