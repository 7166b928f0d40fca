package ingest

import "testing"

func TestToStrictRewritesOnlyTheQuoting(t *testing.T) {
	cases := []struct{ relaxed, strict string }{
		{`{'a':'b'}`, `{"a":"b"}`},
		{`{"a":"b"}`, `{"a":"b"}`},
		{`{'a':'it\'s'}`, `{"a":"it's"}`},
		{`{'a':'say "hi"'}`, `{"a":"say \"hi\""}`},
		{`{'a':'say \"hi\"'}`, `{"a":"say \"hi\""}`},
		{`{'a':'back\\slash'}`, `{"a":"back\\slash"}`},
		{`{'a':'line\nbreak \u00e9'}`, `{"a":"line\nbreak \u00e9"}`},
		{`{"a":"it's"}`, `{"a":"it's"}`},
		{`{"a":"it\'s"}`, `{"a":"it's"}`},
		{`{'n': 1.5e3, 'b': true, 'z': null, 'l': [1,'x']}`, `{"n": 1.5e3, "b": true, "z": null, "l": [1,"x"]}`},
		{`{'k\'ey':'v'}`, `{"k'ey":"v"}`},
		{`{'emoji':'☕ 😀'}`, `{"emoji":"☕ 😀"}`},
	}
	for _, c := range cases {
		got, ok := ToStrict(c.relaxed)
		if !ok || got != c.strict {
			t.Errorf("ToStrict(%s) = %s, %v; want %s", c.relaxed, got, ok, c.strict)
		}
	}
}

func TestToStrictRefusesAnUnterminatedString(t *testing.T) {
	for _, relaxed := range []string{`{'a':'unterminated}`, `{"a":"unterminated}`, `{'a':'ends with backslash\`} {
		if _, ok := ToStrict(relaxed); ok {
			t.Errorf("ToStrict(%s) accepted an unterminated string", relaxed)
		}
	}
}
