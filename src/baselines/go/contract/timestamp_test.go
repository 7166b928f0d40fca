package contract

import (
	"testing"
	"time"
)

func TestParseTimestampAcceptsRFC3339WithOffset(t *testing.T) {
	cases := []struct {
		in   string
		want time.Time
	}{
		{"2026-11-22T10:00:00Z", time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)},
		{"2026-11-22T11:00:00+01:00", time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)},
		{"2026-11-22T00:30:00-02:15", time.Date(2026, 11, 22, 2, 45, 0, 0, time.UTC)},
		{"2026-11-22T10:00:00.5Z", time.Date(2026, 11, 22, 10, 0, 0, 500_000_000, time.UTC)},
		{"2026-11-22T10:00:00.1234567Z", time.Date(2026, 11, 22, 10, 0, 0, 123_456_700, time.UTC)},
		{"2026-11-22T10:00:00.123456789Z", time.Date(2026, 11, 22, 10, 0, 0, 123_456_700, time.UTC)},
		{"2026-11-22T10:00:00.1234567890123456Z", time.Date(2026, 11, 22, 10, 0, 0, 123_456_700, time.UTC)},
		{"2024-02-29T23:59:59+14:00", time.Date(2024, 2, 29, 9, 59, 59, 0, time.UTC)},
		{"0001-01-01T00:00:00Z", time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)},
	}
	for _, c := range cases {
		got, ok := ParseTimestamp(c.in)
		if !ok || !got.Equal(c.want) || got.Location() != time.UTC {
			t.Errorf("ParseTimestamp(%q) = %v, %v; want %v", c.in, got, ok, c.want)
		}
	}
}

func TestParseTimestampRejectsEverythingElse(t *testing.T) {
	for _, in := range []string{
		"", "yesterday", "2026-11-22", "2026-11-22T10:00", "2026-11-22T10:00:00", "2026-11-22 10:00:00Z",
		"2026-11-22t10:00:00Z", "2026-11-22T10:00:00z", "2026-11-22T10:00:00.Z", "2026-11-22T10:00:00.12345678901234567Z",
		"2026-11-22T10:00:00+0100", "2026-11-22T10:00:00+01", "2026-11-22T10:00:00+14:01", "2026-11-22T10:00:00+01:60",
		"2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-11-22T24:00:00Z",
		"2026-11-22T10:60:00Z", "2026-11-22T10:00:60Z", "0000-01-01T00:00:00Z", "0001-01-01T00:00:00+01:00",
		"9999-12-31T23:59:59-01:00", "+2026-11-22T10:00:00Z", "2026-11-22T10:00:00Z ", "2O26-11-22T10:00:00Z",
	} {
		if got, ok := ParseTimestamp(in); ok {
			t.Errorf("ParseTimestamp(%q) = %v, true; want false", in, got)
		}
	}
}

func TestAppendTimestampWritesUTCTicksWithoutTrailingZeros(t *testing.T) {
	cases := map[string]time.Time{
		`"2026-11-22T10:00:00Z"`:         time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC),
		`"2026-11-22T10:00:00.5Z"`:       time.Date(2026, 11, 22, 10, 0, 0, 500_000_000, time.UTC),
		`"2026-11-22T10:00:00.1234567Z"`: time.Date(2026, 11, 22, 10, 0, 0, 123_456_700, time.UTC),
		`"2026-11-22T09:00:00Z"`:         time.Date(2026, 11, 22, 10, 0, 0, 0, time.FixedZone("", 3600)),
	}
	for want, in := range cases {
		if got := string(AppendTimestamp(nil, in)); got != want {
			t.Errorf("AppendTimestamp(%v) = %s; want %s", in, got, want)
		}
	}
}

func TestNowIsUTCInWholeTicks(t *testing.T) {
	now := Now()
	if now.Location() != time.UTC || now.Nanosecond()%100 != 0 {
		t.Fatalf("Now() = %v", now)
	}
}
