package fast

import "testing"

func TestNonTokenName(t *testing.T) {
	cases := []struct {
		raw  string
		want string // the name found, when bad
		bad  bool
	}{
		{"Host: a\r\nX-A: b\r\n\r\n", "", false},
		{"Host: a\r\nX-A: b\r\n continued\r\nX-B: c\r\n\r\n", "", false},
		{"Host: a\r\nX-Bad@: b\r\n\r\n", "X-Bad@", true},
		{"Host: a\r\nX-Bad\x80: b\r\n\r\n", "X-Bad\x80", true},
		{"Host: a\r\nX-A : b\r\n\r\n", "X-A ", true},
		{"Host: a\r\n: b\r\n\r\n", "", true},
		{" X: a\r\n\r\n", " X", true},
		{"Host: a\n\nX-Bad@: b\r\n", "", false}, // after the header's end
	}
	for _, c := range cases {
		got := nonTokenName([]byte(c.raw))
		if (got != nil) != c.bad || string(got) != c.want {
			t.Errorf("%q: got %q (%v), want %q (%v)", c.raw, got, got != nil, c.want, c.bad)
		}
	}
	raw := []byte("Host: a\r\nContent-Type: b\r\n\r\n")
	if n := testing.AllocsPerRun(100, func() { nonTokenName(raw) }); n != 0 {
		t.Errorf("%v allocations", n)
	}
}
