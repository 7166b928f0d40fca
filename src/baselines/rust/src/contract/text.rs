//! Strings as the contract measures and compares them (.NET's rules), and the JSON string writer.

/// Whether `s` has more than `max` UTF-16 code units: what .NET's string.Length counts, so what "at most N
/// characters" means. UTF-8 never has more code units than bytes, so short strings need no counting.
pub fn longer_than(s: &str, max: usize) -> bool {
    s.len() > max && s.chars().map(char::len_utf16).sum::<usize>() > max
}

/// Empty or only white space (.NET's string.IsNullOrWhiteSpace; both use Unicode White_Space).
pub fn is_blank(s: &str) -> bool {
    s.chars().all(char::is_whitespace)
}

/// Whether `s` equals `lower` (ASCII lower-case letters) ignoring case as .NET's OrdinalIgnoreCase does: each
/// character compared by its simple upper-case mapping, so "JOB" and "metrıc" (dotless ı upper-cases to I) match,
/// but the Kelvin sign does not match "k".
pub fn fold_equals(s: &str, lower: &str) -> bool {
    let mut want = lower.bytes();
    for c in s.chars() {
        let w = match want.next() {
            Some(w) => w,
            None => return false,
        };
        if c.is_ascii() {
            if (c as u8) | 0x20 != w {
                return false;
            }
        } else {
            let mut upper = c.to_uppercase();
            let simple = match (upper.next(), upper.next()) {
                (Some(u), None) => u,
                _ => c, // no simple mapping: the character stays itself
            };
            if simple != (w - 0x20) as char {
                return false;
            }
        }
    }
    want.next().is_none()
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Appends `s` as a JSON string: only what JSON requires is escaped (quote, backslash, control characters), the
/// rest written as UTF-8 — the bytes the Go baselines write.
pub fn push_json_str(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &c) in bytes.iter().enumerate() {
        if c >= 0x20 && c != b'"' && c != b'\\' {
            continue;
        }
        out.extend_from_slice(&bytes[start..i]);
        match c {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0c => out.extend_from_slice(b"\\f"),
            _ => out.extend_from_slice(&[b'\\', b'u', b'0', b'0', HEX[(c >> 4) as usize], HEX[(c & 0xf) as usize]]),
        }
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// Appends a finite number in the shortest form that reads back to the same f64, spelled as Go's strconv does:
/// plain notation from 1e-6 to below 1e21, exponent notation outside ("1e-7", "1.5e+21").
pub fn push_json_number(out: &mut Vec<u8>, f: f64) {
    use std::io::Write;
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        let start = out.len();
        let _ = write!(out, "{:e}", f);
        // Rust writes "1.5e21"; Go (and JSON readers everywhere) "1.5e+21".
        if let Some(e) = out[start..].iter().position(|&c| c == b'e') {
            let at = start + e + 1;
            if out.get(at) != Some(&b'-') {
                out.insert(at, b'+');
            }
        }
    } else {
        let _ = write!(out, "{}", f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_count_utf16_code_units() {
        assert!(!longer_than(&"é".repeat(256), 256));
        assert!(longer_than(&"s".repeat(257), 256));
        assert!(longer_than(&"😀".repeat(129), 256));
        assert!(!longer_than(&"😀".repeat(128), 256));
    }

    #[test]
    fn fold_equals_is_ordinal_ignore_case() {
        assert!(fold_equals("ErRoR", "error"));
        assert!(fold_equals("metrıc", "metric"));
        assert!(!fold_equals("İnfo", "info"));
        assert!(!fold_equals("jobs", "job"));
        assert!(!fold_equals("jo", "job"));
        assert!(!fold_equals("\u{212a}", "k"));
    }

    #[test]
    fn blank_is_unicode_white_space() {
        assert!(is_blank(""));
        assert!(is_blank(" \u{a0}\u{2003}\t"));
        assert!(!is_blank(" x "));
    }

    #[test]
    fn json_strings_escape_only_what_json_requires() {
        let mut out = Vec::new();
        push_json_str(&mut out, "ünï \"q\" \\ \u{1}\n\t😀 <&>");
        assert_eq!(String::from_utf8(out).unwrap(), r#""ünï \"q\" \\ \u0001\n\t😀 <&>""#);
    }

    #[test]
    fn numbers_are_spelled_as_go_spells_them() {
        let cases: &[(f64, &str)] = &[
            (0.93, "0.93"),
            (1.0, "1"),
            (-0.0, "-0"),
            (0.0, "0"),
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"),
            (1.2345678901234568e29, "1.2345678901234568e+29"),
            (1e-6, "0.000001"),
            (1e-7, "1e-7"),
            (-2.5e-9, "-2.5e-9"),
        ];
        for &(f, want) in cases {
            let mut out = Vec::new();
            push_json_number(&mut out, f);
            assert_eq!(String::from_utf8(out).unwrap(), want, "{:?}", f);
        }
    }
}
