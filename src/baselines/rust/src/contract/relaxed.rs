//! The classic payload's inner document: the 2016 test sent it with single-quoted strings.

/// Whether a classic inner document uses single quotes at all.
pub fn needs_rewrite(relaxed: &str) -> bool {
    relaxed.as_bytes().contains(&b'\'')
}

/// The inner document rewritten as strict JSON, or `None` when a string is not terminated.
///
/// Only the quoting changes: every string is written double-quoted; inside a single-quoted string an unescaped `"`
/// becomes `\"` and `\'` a plain `'`; every other escape is copied unchanged, so it keeps its meaning and an invalid
/// one is still caught by the strict reader afterwards. Everything outside strings is copied verbatim for the strict
/// reader to judge. Quotes and backslashes are ASCII, so working on UTF-8 bytes is exact.
pub fn relaxed_to_strict(relaxed: &str) -> Option<Vec<u8>> {
    let s = relaxed.as_bytes();
    let mut out = Vec::with_capacity(s.len() + 16);
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        i += 1;
        if c != b'"' && c != b'\'' {
            out.push(c);
            continue;
        }
        // A string whose opening quote `c` was just read.
        out.push(b'"');
        loop {
            let d = *s.get(i)?;
            i += 1;
            if d == c {
                out.push(b'"');
                break;
            }
            match d {
                b'\\' => {
                    let escaped = *s.get(i)?;
                    i += 1;
                    if escaped == b'\'' {
                        // \' is no JSON escape; in the relaxed document it is a plain single quote.
                        out.push(b'\'');
                    } else {
                        out.extend_from_slice(&[b'\\', escaped]);
                    }
                }
                // Only reachable inside a single-quoted string: a literal double quote.
                b'"' => out.extend_from_slice(b"\\\""),
                _ => out.push(d),
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strict(s: &str) -> Option<String> {
        relaxed_to_strict(s).map(|b| String::from_utf8(b).unwrap())
    }

    #[test]
    fn single_quotes_become_double_quotes() {
        assert_eq!(
            strict("{'job_id':'c4bb6d130003','status':'Success: process exited with code 0.'}").as_deref(),
            Some(r#"{"job_id":"c4bb6d130003","status":"Success: process exited with code 0."}"#)
        );
    }

    #[test]
    fn quotes_and_escapes_keep_their_meaning() {
        assert_eq!(strict(r#"{'a':'say "hi"'}"#).as_deref(), Some(r#"{"a":"say \"hi\""}"#));
        assert_eq!(strict(r"{'a':'it\'s'}").as_deref(), Some(r#"{"a":"it's"}"#));
        assert_eq!(strict(r"{'a':'\n\\\u00e9'}").as_deref(), Some(r#"{"a":"\n\\\u00e9"}"#));
        assert_eq!(strict(r#"{"a":'x',"b":"it's"}"#).as_deref(), Some(r#"{"a":"x","b":"it's"}"#));
        assert_eq!(strict("{'ü':'ö'}").as_deref(), Some(r#"{"ü":"ö"}"#));
        // An invalid escape is copied for the strict reader to refuse.
        assert_eq!(strict(r"{'a':'\x'}").as_deref(), Some(r#"{"a":"\x"}"#));
    }

    #[test]
    fn unterminated_strings_are_refused() {
        assert_eq!(strict("{'job_id':'x','status':'unterminated}"), None);
        assert_eq!(strict("{'a':'x\\"), None);
        assert_eq!(strict("{\"a\":\"x"), None);
    }
}
