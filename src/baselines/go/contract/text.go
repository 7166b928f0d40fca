package contract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// utf16Len is the length of s in UTF-16 code units: what .NET's string.Length counts, and so what the
// contract's "at most N characters" means.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// longerThan reports whether s has more than max UTF-16 code units. A UTF-8 string never has more code
// units than bytes, so short strings need no counting.
func longerThan(s string, max int) bool {
	return len(s) > max && utf16Len(s) > max
}

// isBlank reports whether s is empty or only white space (.NET's string.IsNullOrWhiteSpace; Go's
// unicode.IsSpace is the same set: Unicode White_Space).
func isBlank(s string) bool {
	for _, r := range s {
		if !unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

// trimSpace trims Unicode white space at both ends, as .NET's string.Trim() does.
func trimSpace(s string) string {
	if s == "" || (!isSpaceByte(s[0]) && !isSpaceByte(s[len(s)-1]) && s[0] < utf8.RuneSelf && s[len(s)-1] < utf8.RuneSelf) {
		return s
	}
	return strings.TrimFunc(s, unicode.IsSpace)
}

func isSpaceByte(c byte) bool {
	return c == ' ' || (c >= '\t' && c <= '\r')
}

// foldEquals reports whether s equals lower (ASCII lower-case letters only) ignoring case the way .NET's
// StringComparison.OrdinalIgnoreCase does: each character is compared by its simple upper-case mapping,
// so "JOB" matches "job" and so does "metrıc" (dotless i upper-cases to I), but the Kelvin sign does not
// match "k".
func foldEquals(s, lower string) bool {
	j := 0
	for i := 0; i < len(s); {
		if j == len(lower) {
			return false
		}
		want := lower[j]
		c := s[i]
		if c < utf8.RuneSelf {
			if c|0x20 != want {
				return false
			}
			i++
		} else {
			r, size := utf8.DecodeRuneInString(s[i:])
			if unicode.ToUpper(r) != rune(want-0x20) {
				return false
			}
			i += size
		}
		j++
	}
	return j == len(lower)
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string. Only what JSON requires is escaped (quote, backslash,
// control characters); other characters are written as UTF-8. Invalid UTF-8 (possible only in text
// taken from headers) becomes U+FFFD, so the output is always valid JSON.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
