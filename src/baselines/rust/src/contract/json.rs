//! A strict RFC 8259 reader over one document, written for the event shapes of the contract: it reads the members
//! it knows with their JSON types checked and only validates the syntax of everything else. Syntax errors are
//! malformed-json; a value of the wrong type or an invalid value (bad UTF-8, a lone surrogate, a number out of
//! range) is invalid-field — the .NET services' split, and the member being read names the path.
//!
//! Why not serde_json here: the contract's answers need what a serde `Deserializer` does not expose — the member
//! being read when the syntax broke (`$[1].type`), malformed-json and invalid-field told apart exactly as .NET
//! tells them, a nesting limit of 64 rather than serde_json's fixed 128, and a lone surrogate reported as an
//! invalid value. Strings are borrowed from the body unless they hold escapes.

use std::borrow::Cow;

use super::location::{push_member, Location};
use super::problem::{Kind, Problem};

/// The deepest nesting read (`Limits:MaxJsonDepth`, the default of both .NET serializers).
pub const MAX_DEPTH: usize = 64;

/// A problem found while reading, before the caller knows the event's location.
#[derive(Debug)]
pub struct ReadError {
    pub kind: Kind,
    what: Cow<'static, str>,
    line: usize,
    col: usize,
    /// The member whose value was being read.
    member: Option<String>,
}

pub type ReadResult<T> = Result<T, Box<ReadError>>;

impl ReadError {
    /// Names the member being read when this happened, unless a deeper one is named already.
    pub fn in_member(mut self: Box<Self>, name: &str) -> Box<Self> {
        self.member = Some(name.to_owned());
        self
    }

    /// The contract's problem for an event at `loc`.
    pub fn problem(&self, loc: Location) -> Problem {
        let mut path = loc.root();
        if let Some(member) = &self.member {
            push_member(&mut path, member);
        }
        let detail = if self.kind == Kind::MalformedJson {
            format!("The JSON is not well-formed at {} (line {}, byte {}): {}.", path, self.line, self.col, self.what)
        } else {
            format!(
                "The value at {} has the wrong JSON type or format (line {}, byte {}): {}.",
                path, self.line, self.col, self.what
            )
        };
        Problem::new(self.kind, detail, Some(path))
    }
}

pub struct Reader<'a> {
    pub buf: &'a [u8],
    pub pos: usize,
    depth: usize,
}

fn is_hex(c: u8) -> bool {
    c.is_ascii_hexdigit()
}

impl<'a> Reader<'a> {
    pub fn new(buf: &'a [u8]) -> Reader<'a> {
        Reader { buf, pos: 0, depth: 0 }
    }

    pub fn fail(&self, kind: Kind, offset: usize, what: impl Into<Cow<'static, str>>) -> Box<ReadError> {
        let (mut line, mut col) = (1, 1);
        for &c in &self.buf[..offset.min(self.buf.len())] {
            if c == b'\n' {
                line += 1;
                col = 1;
            } else {
                col += 1;
            }
        }
        Box::new(ReadError { kind, what: what.into(), line, col, member: None })
    }

    pub fn syntax(&self, what: &'static str) -> Box<ReadError> {
        self.fail(Kind::MalformedJson, self.pos, what)
    }

    #[inline]
    pub fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.buf.get(self.pos) {
            self.pos += 1;
        }
    }

    /// The current byte, 0 at the end (0 never starts a JSON value).
    #[inline]
    pub fn peek(&self) -> u8 {
        self.buf.get(self.pos).copied().unwrap_or(0)
    }

    /// Checks that nothing but white space follows the document.
    pub fn expect_end(&mut self) -> ReadResult<()> {
        self.skip_ws();
        if self.pos < self.buf.len() {
            return Err(self.syntax("unexpected content after the JSON value"));
        }
        Ok(())
    }

    /// Steps into the object or array at the current position.
    pub fn enter(&mut self) -> ReadResult<()> {
        if self.depth >= MAX_DEPTH {
            return Err(self.syntax("the document is nested deeper than 64 levels"));
        }
        self.depth += 1;
        self.pos += 1;
        Ok(())
    }

    /// Steps out of the container whose closing bracket is at the current position.
    pub fn leave(&mut self) {
        self.depth -= 1;
        self.pos += 1;
    }

    /// Checks the string token at the current position (an opening quote) and moves past it: the bounds of its
    /// content and whether that holds escapes.
    pub fn scan_string(&mut self) -> ReadResult<(usize, usize, bool)> {
        let start = self.pos + 1;
        let buf = self.buf;
        let mut escaped = false;
        let mut i = start;
        while i < buf.len() {
            match buf[i] {
                b'"' => {
                    self.pos = i + 1;
                    return Ok((start, i, escaped));
                }
                b'\\' => {
                    escaped = true;
                    i += 1;
                    match buf.get(i) {
                        None => break,
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {}
                        Some(b'u') => {
                            if i + 4 >= buf.len() || !buf[i + 1..i + 5].iter().all(|&c| is_hex(c)) {
                                return Err(self.fail(
                                    Kind::MalformedJson,
                                    i - 1,
                                    "\"\\u\" must be followed by four hex digits",
                                ));
                            }
                            i += 4;
                        }
                        Some(_) => return Err(self.fail(Kind::MalformedJson, i - 1, "invalid escape sequence in a string")),
                    }
                }
                c if c < 0x20 => return Err(self.fail(Kind::MalformedJson, i, "control character in a string")),
                _ => {}
            }
            i += 1;
        }
        Err(self.fail(Kind::MalformedJson, buf.len(), "unterminated string"))
    }

    /// A scanned string's content as text: borrowed from the body unless it holds escapes; `None` when it is not
    /// valid UTF-8 or holds a lone surrogate, which no .NET string can carry either.
    pub fn string_value(&self, start: usize, end: usize, escaped: bool) -> Option<Cow<'a, str>> {
        let raw: &'a [u8] = &self.buf[start..end];
        if !escaped {
            return std::str::from_utf8(raw).ok().map(Cow::Borrowed);
        }
        let (text, ok) = unescape(raw);
        if ok {
            String::from_utf8(text).ok().map(Cow::Owned)
        } else {
            None
        }
    }

    /// Checks the number token at the current position against RFC 8259 and moves past it; like System.Text.Json
    /// it requires a delimiter right after the number.
    pub fn scan_number(&mut self) -> ReadResult<(usize, usize)> {
        let b = self.buf;
        let start = self.pos;
        let mut i = start;
        let digit = |i: usize| i < b.len() && b[i].is_ascii_digit();
        if i < b.len() && b[i] == b'-' {
            i += 1;
        }
        if i < b.len() && b[i] == b'0' {
            i += 1;
        } else if i < b.len() && (b'1'..=b'9').contains(&b[i]) {
            while digit(i) {
                i += 1;
            }
        } else {
            return Err(self.fail(Kind::MalformedJson, i, "invalid number"));
        }
        if i < b.len() && b[i] == b'.' {
            i += 1;
            if !digit(i) {
                return Err(self.fail(Kind::MalformedJson, i, "a number needs digits after its decimal point"));
            }
            while digit(i) {
                i += 1;
            }
        }
        if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
            i += 1;
            if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
                i += 1;
            }
            if !digit(i) {
                return Err(self.fail(Kind::MalformedJson, i, "a number needs digits in its exponent"));
            }
            while digit(i) {
                i += 1;
            }
        }
        match b.get(i) {
            Some(b' ' | b'\t' | b'\n' | b'\r' | b',' | b'}' | b']') => {}
            Some(_) => return Err(self.fail(Kind::MalformedJson, i, "invalid character after a number")),
            // A number may end the data only as a whole document; System.Text.Json rejects "[1" here.
            None if self.depth > 0 => {
                return Err(self.fail(Kind::MalformedJson, i, "unexpected end of the document after a number"))
            }
            None => {}
        }
        self.pos = i;
        Ok((start, i))
    }

    /// Checks that the literal (true, false or null) is at the current position and moves past it.
    pub fn scan_literal(&mut self, literal: &'static str) -> ReadResult<()> {
        for (i, &c) in literal.as_bytes().iter().enumerate() {
            if self.buf.get(self.pos + i) != Some(&c) {
                return Err(self.fail(
                    Kind::MalformedJson,
                    self.pos + i,
                    format!("invalid literal, expected '{}'", literal),
                ));
            }
        }
        self.pos += literal.len();
        Ok(())
    }

    /// Checks the syntax of any value at the current position and moves past it.
    pub fn skip_value(&mut self) -> ReadResult<()> {
        match self.peek() {
            b'{' => {
                self.enter()?;
                self.skip_ws();
                if self.peek() == b'}' {
                    self.leave();
                    return Ok(());
                }
                loop {
                    if self.peek() != b'"' {
                        return Err(self.syntax("expected a member name"));
                    }
                    self.scan_string()?;
                    self.skip_ws();
                    if self.peek() != b':' {
                        return Err(self.syntax("expected ':' after a member name"));
                    }
                    self.pos += 1;
                    self.skip_ws();
                    self.skip_value()?;
                    self.skip_ws();
                    match self.peek() {
                        b',' => {
                            self.pos += 1;
                            self.skip_ws();
                        }
                        b'}' => {
                            self.leave();
                            return Ok(());
                        }
                        _ => return Err(self.syntax("expected ',' or '}' after a member")),
                    }
                }
            }
            b'[' => {
                self.enter()?;
                self.skip_ws();
                if self.peek() == b']' {
                    self.leave();
                    return Ok(());
                }
                loop {
                    self.skip_value()?;
                    self.skip_ws();
                    match self.peek() {
                        b',' => {
                            self.pos += 1;
                            self.skip_ws();
                        }
                        b']' => {
                            self.leave();
                            return Ok(());
                        }
                        _ => return Err(self.syntax("expected ',' or ']' after an array element")),
                    }
                }
            }
            b'"' => self.scan_string().map(|_| ()),
            b't' => self.scan_literal("true"),
            b'f' => self.scan_literal("false"),
            b'n' => self.scan_literal("null"),
            b'-' | b'0'..=b'9' => self.scan_number().map(|_| ()),
            0 if self.pos >= self.buf.len() => Err(self.syntax("unexpected end of the document")),
            _ => Err(self.syntax("invalid start of a value")),
        }
    }

    /// A value whose JSON type does not fit: the token is read first, so a broken token is still malformed JSON
    /// (a container is refused at its opening bracket, as System.Text.Json does).
    pub fn wrong_type(&mut self, expected: &'static str) -> Box<ReadError> {
        let start = self.pos;
        if !matches!(self.peek(), b'{' | b'[') {
            if let Err(e) = self.skip_value() {
                return e;
            }
        }
        self.fail(Kind::InvalidField, start, format!("expected {}", expected))
    }
}

fn hex4(b: &[u8]) -> u32 {
    b[..4].iter().fold(0, |r, &c| (r << 4) | (c as char).to_digit(16).unwrap_or(0))
}

/// The unescaped content of a string whose syntax `scan_string` checked, and false when it is not valid UTF-8 or
/// holds a lone surrogate.
pub fn unescape(raw: &[u8]) -> (Vec<u8>, bool) {
    let mut out = Vec::with_capacity(raw.len());
    let mut ok = true;
    let mut i = 0;
    while i < raw.len() {
        if raw[i] != b'\\' {
            let end = raw[i..].iter().position(|&c| c == b'\\').map_or(raw.len(), |n| i + n);
            if std::str::from_utf8(&raw[i..end]).is_err() {
                ok = false;
            }
            out.extend_from_slice(&raw[i..end]);
            i = end;
            continue;
        }
        let e = raw[i + 1];
        i += 2;
        let c = match e {
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let r1 = hex4(&raw[i..]);
                i += 4;
                if (0xD800..0xDC00).contains(&r1) && i + 6 <= raw.len() && raw[i] == b'\\' && raw[i + 1] == b'u' {
                    let r2 = hex4(&raw[i + 2..]);
                    if (0xDC00..0xE000).contains(&r2) {
                        i += 6;
                        char::from_u32(0x10000 + ((r1 - 0xD800) << 10) + (r2 - 0xDC00)).unwrap_or('\u{fffd}')
                    } else {
                        ok = false;
                        '\u{fffd}'
                    }
                } else {
                    char::from_u32(r1).unwrap_or_else(|| {
                        ok = false; // a lone surrogate
                        '\u{fffd}'
                    })
                }
            }
            other => other as char, // '"', '\\', '/'
        };
        let mut utf8 = [0u8; 4];
        out.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
    }
    (out, ok)
}
