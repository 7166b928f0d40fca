package contract

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth is the deepest nesting read, the default of both .NET serializers made explicit there.
const maxDepth = 64

// jsonReader is a strict RFC 8259 reader over one document, written for the event shapes of the
// contract: it reads the members it knows with their JSON types checked, and only validates the syntax
// of everything else. Syntax errors are malformed-json; a value of the wrong type or an invalid value
// (bad UTF-8, a lone surrogate, an overflowing number) is invalid-field, as in the .NET services.
type jsonReader struct {
	buf     []byte
	pos     int
	depth   int
	scratch []byte // unescaped strings, reused
}

// readError is a problem found while reading, before the caller knows the event's location.
type readError struct {
	kind      Kind
	what      string
	line, col int
	member    string // the member whose value was being read
	hasMember bool
}

func (r *jsonReader) fail(kind Kind, offset int, what string) *readError {
	line, col := 1, 1
	for i := 0; i < offset && i < len(r.buf); i++ {
		if r.buf[i] == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return &readError{kind: kind, what: what, line: line, col: col}
}

func (r *jsonReader) syntax(what string) *readError { return r.fail(MalformedJSON, r.pos, what) }

// problem turns the error into the contract's problem for an event at loc.
func (e *readError) problem(loc Location) *Problem {
	path := loc.Root()
	if e.hasMember {
		path += memberSuffix(e.member)
	}
	where := " (line " + strconv.Itoa(e.line) + ", byte " + strconv.Itoa(e.col) + "): " + e.what + "."
	if e.kind == MalformedJSON {
		return newProblem(MalformedJSON, "The JSON is not well-formed at "+path+where, path)
	}
	return newProblem(e.kind, "The value at "+path+" has the wrong JSON type or format"+where, path)
}

func (r *jsonReader) skipWS() {
	for r.pos < len(r.buf) {
		switch r.buf[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

// peek is the current byte, 0 at the end (0 never starts a JSON value).
func (r *jsonReader) peek() byte {
	if r.pos < len(r.buf) {
		return r.buf[r.pos]
	}
	return 0
}

// expectEnd checks that nothing but white space follows the document.
func (r *jsonReader) expectEnd() *readError {
	r.skipWS()
	if r.pos < len(r.buf) {
		return r.syntax("unexpected content after the JSON value")
	}
	return nil
}

// enter steps into an object or array at the current position.
func (r *jsonReader) enter() *readError {
	if r.depth >= maxDepth {
		return r.syntax("the document is nested deeper than " + strconv.Itoa(maxDepth) + " levels")
	}
	r.depth++
	r.pos++
	return nil
}

// leave steps out of the container whose closing bracket is at the current position.
func (r *jsonReader) leave() {
	r.depth--
	r.pos++
}

// scanString checks the syntax of the string token at the current position (an opening quote) and moves
// past it. It returns the bounds of its content and whether that holds escapes.
func (r *jsonReader) scanString() (start, end int, escaped bool, err *readError) {
	start = r.pos + 1
	for i := start; i < len(r.buf); i++ {
		switch c := r.buf[i]; {
		case c == '"':
			r.pos = i + 1
			return start, i, escaped, nil
		case c == '\\':
			escaped = true
			i++
			if i == len(r.buf) {
				break
			}
			switch r.buf[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(r.buf) || !isHex(r.buf[i+1]) || !isHex(r.buf[i+2]) || !isHex(r.buf[i+3]) || !isHex(r.buf[i+4]) {
					return 0, 0, false, r.fail(MalformedJSON, i-1, `"\u" must be followed by four hex digits`)
				}
				i += 4
			default:
				return 0, 0, false, r.fail(MalformedJSON, i-1, "invalid escape sequence in a string")
			}
		case c < 0x20:
			return 0, 0, false, r.fail(MalformedJSON, i, "control character in a string")
		}
	}
	return 0, 0, false, r.fail(MalformedJSON, len(r.buf), "unterminated string")
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// stringValue turns a scanned string's content into a Go string; false when it is not valid UTF-8 or
// holds a lone surrogate escape, which no .NET string can carry either.
func (r *jsonReader) stringValue(start, end int, escaped bool) (string, bool) {
	raw := r.buf[start:end]
	if !escaped {
		if !utf8.Valid(raw) {
			return "", false
		}
		return string(raw), true
	}
	var ok bool
	r.scratch, ok = appendUnescaped(r.scratch[:0], raw)
	return string(r.scratch), ok
}

// appendUnescaped appends the unescaped content of a string whose syntax scanString has checked.
func appendUnescaped(dst, raw []byte) ([]byte, bool) {
	ok := true
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			j := i + 1
			for j < len(raw) && raw[j] != '\\' {
				j++
			}
			if !utf8.Valid(raw[i:j]) {
				ok = false
			}
			dst = append(dst, raw[i:j]...)
			i = j
			continue
		}
		e := raw[i+1]
		i += 2
		switch e {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r1 := hex4(raw[i:])
			i += 4
			switch {
			case utf16.IsSurrogate(r1) && r1 < 0xDC00 && i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u':
				r2 := hex4(raw[i+2:])
				if combined := utf16.DecodeRune(r1, r2); combined != utf8.RuneError {
					dst = utf8.AppendRune(dst, combined)
					i += 6
				} else {
					ok = false
				}
			case utf16.IsSurrogate(r1):
				ok = false
			default:
				dst = utf8.AppendRune(dst, r1)
			}
		default: // '"', '\\', '/'
			dst = append(dst, e)
		}
	}
	return dst, ok
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		default:
			r |= rune(c - 'A' + 10)
		}
	}
	return r
}

// scanNumber checks the number token at the current position against RFC 8259's grammar and moves past
// it; like System.Text.Json it requires a delimiter right after the number.
func (r *jsonReader) scanNumber() (start, end int, err *readError) {
	b, i := r.buf, r.pos
	start = i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return 0, 0, r.fail(MalformedJSON, i, "invalid number")
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i == len(b) || b[i] < '0' || b[i] > '9' {
			return 0, 0, r.fail(MalformedJSON, i, "a number needs digits after its decimal point")
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i == len(b) || b[i] < '0' || b[i] > '9' {
			return 0, 0, r.fail(MalformedJSON, i, "a number needs digits in its exponent")
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	switch {
	case i < len(b):
		switch b[i] {
		case ' ', '\t', '\n', '\r', ',', '}', ']':
		default:
			return 0, 0, r.fail(MalformedJSON, i, "invalid character after a number")
		}
	case r.depth > 0:
		// A number may end the data only as a whole document; System.Text.Json rejects "[1" here.
		return 0, 0, r.fail(MalformedJSON, i, "unexpected end of the document after a number")
	}
	r.pos = i
	return start, i, nil
}

// scanLiteral checks that the literal (true, false or null) is at the current position and moves past it.
func (r *jsonReader) scanLiteral(literal string) *readError {
	for i := 0; i < len(literal); i++ {
		if r.pos+i >= len(r.buf) || r.buf[r.pos+i] != literal[i] {
			return r.fail(MalformedJSON, r.pos+i, "invalid literal, expected '"+literal+"'")
		}
	}
	r.pos += len(literal)
	return nil
}

// skipValue checks the syntax of any value at the current position and moves past it.
func (r *jsonReader) skipValue() *readError {
	switch r.peek() {
	case '{':
		if err := r.enter(); err != nil {
			return err
		}
		r.skipWS()
		if r.peek() == '}' {
			r.leave()
			return nil
		}
		for {
			if r.peek() != '"' {
				return r.syntax("expected a member name")
			}
			if _, _, _, err := r.scanString(); err != nil {
				return err
			}
			r.skipWS()
			if r.peek() != ':' {
				return r.syntax("expected ':' after a member name")
			}
			r.pos++
			r.skipWS()
			if err := r.skipValue(); err != nil {
				return err
			}
			r.skipWS()
			switch r.peek() {
			case ',':
				r.pos++
				r.skipWS()
			case '}':
				r.leave()
				return nil
			default:
				return r.syntax("expected ',' or '}' after a member")
			}
		}
	case '[':
		if err := r.enter(); err != nil {
			return err
		}
		r.skipWS()
		if r.peek() == ']' {
			r.leave()
			return nil
		}
		for {
			if err := r.skipValue(); err != nil {
				return err
			}
			r.skipWS()
			switch r.peek() {
			case ',':
				r.pos++
				r.skipWS()
			case ']':
				r.leave()
				return nil
			default:
				return r.syntax("expected ',' or ']' after an array element")
			}
		}
	case '"':
		_, _, _, err := r.scanString()
		return err
	case 't':
		return r.scanLiteral("true")
	case 'f':
		return r.scanLiteral("false")
	case 'n':
		return r.scanLiteral("null")
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		_, _, err := r.scanNumber()
		return err
	case 0:
		if r.pos >= len(r.buf) {
			return r.syntax("unexpected end of the document")
		}
	}
	return r.syntax("invalid start of a value")
}

// wrongType reports a value whose JSON type does not fit: the token is read first, so a broken token
// is still malformed JSON (a container is rejected at its opening bracket, as System.Text.Json does).
func (r *jsonReader) wrongType(expected string) *readError {
	start := r.pos
	switch r.peek() {
	case '{', '[':
	default:
		if err := r.skipValue(); err != nil {
			return err
		}
	}
	return r.fail(InvalidField, start, "expected "+expected)
}
