package contract

import "time"

// Timestamps carry 100 ns ticks, as .NET's DateTime does, so both implementations forward the same
// digits.
const tick = 100 * time.Nanosecond

const (
	// maxFractionDigits is the longest fraction accepted (System.Text.Json's limit); digits beyond the
	// seventh are dropped.
	maxFractionDigits = 16
	// maxOffset is the largest UTC offset a .NET DateTimeOffset can hold.
	maxOffset = 14 * 60
)

// ParseTimestamp reads an RFC 3339 date-time with an offset ("2026-11-22T10:00:00.5+01:00") and returns
// it in UTC, truncated to 100 ns. "T" and "Z" must be upper case; the offset must be "Z" or ±hh:mm
// within ±14:00; seconds run to 59; the UTC result must lie in the years 1 to 9999. Anything else is
// rejected.
func ParseTimestamp(s string) (time.Time, bool) {
	// yyyy-MM-ddTHH:mm:ss is 19 bytes; the shortest offset ("Z") makes 20.
	if len(s) < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return time.Time{}, false
	}
	year, ok1 := digits(s[0:4])
	month, ok2 := digits(s[5:7])
	day, ok3 := digits(s[8:10])
	hour, ok4 := digits(s[11:13])
	minute, ok5 := digits(s[14:16])
	second, ok6 := digits(s[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) ||
		year < 1 || month < 1 || month > 12 || day < 1 || day > daysIn(month, year) ||
		hour > 23 || minute > 59 || second > 59 {
		return time.Time{}, false
	}

	i := 19
	nanos := 0
	if s[i] == '.' {
		i++
		start := i
		scale := int(time.Second)
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			if scale > int(tick) {
				scale /= 10
				nanos += int(s[i]-'0') * scale
			}
			i++
		}
		if n := i - start; n == 0 || n > maxFractionDigits {
			return time.Time{}, false
		}
	}

	offsetMinutes := 0
	switch rest := s[i:]; {
	case rest == "Z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		h, okH := digits(rest[1:3])
		m, okM := digits(rest[4:6])
		if !okH || !okM || m > 59 {
			return time.Time{}, false
		}
		offsetMinutes = h*60 + m
		if offsetMinutes > maxOffset {
			return time.Time{}, false
		}
		if rest[0] == '-' {
			offsetMinutes = -offsetMinutes
		}
	default:
		return time.Time{}, false
	}

	t := time.Date(year, time.Month(month), day, hour, minute, second, nanos, time.UTC).
		Add(-time.Duration(offsetMinutes) * time.Minute)
	if y := t.Year(); y < 1 || y > 9999 {
		return time.Time{}, false
	}
	return t, true
}

func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	default:
		return 31
	}
}

// rfc3339Ticks writes the fraction without trailing zeros, as .NET writes a UTC DateTime.
const rfc3339Ticks = "2006-01-02T15:04:05.9999999Z07:00"

// AppendTimestamp appends t as a JSON string in UTC with "Z", its fraction to 100 ns without trailing
// zeros: "2026-11-22T10:00:00.1234567Z", "2026-11-22T10:00:00Z".
func AppendTimestamp(dst []byte, t time.Time) []byte {
	dst = append(dst, '"')
	dst = t.UTC().AppendFormat(dst, rfc3339Ticks)
	return append(dst, '"')
}

// Now is the receive time of a request: UTC, truncated to 100 ns.
func Now() time.Time {
	return time.Now().UTC().Truncate(tick)
}
