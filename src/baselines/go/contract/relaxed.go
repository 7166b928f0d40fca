package contract

import "strings"

// needsRewrite reports whether a classic inner document uses single quotes at all.
func needsRewrite(relaxed string) bool { return strings.IndexByte(relaxed, '\'') >= 0 }

// RelaxedToStrict appends to dst the classic payload's inner document rewritten as strict JSON, and
// reports false when a string is not terminated.
//
// The 2016 test sent the inner document with single-quoted strings. Only the quoting changes: every
// string is written double-quoted; inside a single-quoted string an unescaped " becomes \" and \'
// becomes a plain '; every other escape is copied unchanged, so it keeps its meaning and an invalid one
// is still caught by the strict reader afterwards. Everything outside strings is copied verbatim and
// left for the strict reader to judge. Quotes and backslashes are ASCII, so working on UTF-8 bytes is
// exact.
func RelaxedToStrict(dst []byte, relaxed string) ([]byte, bool) {
	for i := 0; i < len(relaxed); {
		c := relaxed[i]
		i++
		if c != '"' && c != '\'' {
			dst = append(dst, c)
			continue
		}
		var ok bool
		if dst, i, ok = copyString(dst, relaxed, i, c); !ok {
			return dst, false
		}
	}
	return dst, true
}

// copyString copies one string whose opening quote (quote) was just read, double-quoted, and returns
// the position after its closing quote.
func copyString(dst []byte, s string, i int, quote byte) ([]byte, int, bool) {
	dst = append(dst, '"')
	for i < len(s) {
		c := s[i]
		i++
		switch {
		case c == quote:
			return append(dst, '"'), i, true
		case c == '\\':
			if i == len(s) {
				return dst, i, false
			}
			escaped := s[i]
			i++
			if escaped == '\'' {
				// \' is no JSON escape; in the relaxed document it is a plain single quote.
				dst = append(dst, '\'')
			} else {
				dst = append(dst, '\\', escaped)
			}
		case c == '"':
			// Only reachable inside a single-quoted string: a literal double quote.
			dst = append(dst, '\\', '"')
		default:
			dst = append(dst, c)
		}
	}
	return dst, i, false
}
