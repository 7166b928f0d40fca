package ingest

import "strings"

// NeedsRewrite reports whether a classic inner document uses single quotes at all.
func NeedsRewrite(relaxed string) bool { return strings.IndexByte(relaxed, '\'') >= 0 }

// ToStrict rewrites a relaxed JSON document — strings may be single-quoted, as the 2016 test sent them —
// into strict JSON. Only the quoting changes: inside a single-quoted string an unescaped '"' becomes `\"`
// and `\'` becomes a plain quote; every other escape is kept, so the strict parser still judges it. It
// returns false when a string is not terminated.
func ToStrict(relaxed string) (string, bool) {
	var b strings.Builder
	b.Grow(len(relaxed) + 8)
	for i := 0; i < len(relaxed); {
		c := relaxed[i]
		i++
		if c != '"' && c != '\'' {
			b.WriteByte(c)
			continue
		}
		quote := c
		b.WriteByte('"')
		terminated := false
		for i < len(relaxed) {
			c = relaxed[i]
			i++
			if c == quote {
				b.WriteByte('"')
				terminated = true
				break
			}
			switch {
			case c == '\\':
				if i == len(relaxed) {
					return "", false
				}
				escaped := relaxed[i]
				i++
				if escaped == '\'' {
					b.WriteByte('\'')
				} else {
					b.WriteByte('\\')
					b.WriteByte(escaped)
				}
			case c == '"':
				// Only reachable inside a single-quoted string.
				b.WriteString(`\"`)
			default:
				b.WriteByte(c)
			}
		}
		if !terminated {
			return "", false
		}
	}
	return b.String(), true
}
