package contract

import "testing"

func TestRelaxedToStrictRewritesOnlyTheQuoting(t *testing.T) {
	cases := []struct{ name, relaxed, strict string }{
		{"the 2016 payload",
			`{'job_id':'c4bb6d130003','container_id':'ab7b85dcac72','status':'Success: process exited with code 0.'}`,
			`{"job_id":"c4bb6d130003","container_id":"ab7b85dcac72","status":"Success: process exited with code 0."}`},
		{"escaped single quote becomes a plain one", `{'a':'it\'s'}`, `{"a":"it's"}`},
		{"double quote inside single quotes is escaped", `{'a':'say "hi"'}`, `{"a":"say \"hi\""}`},
		{"escaped double quote inside single quotes stays escaped", `{'a':'say \"hi\"'}`, `{"a":"say \"hi\""}`},
		{"JSON escapes are kept", `{'a':'x\n\t\\\/\u00e9\b\f\r'}`, `{"a":"x\n\t\\\/\u00e9\b\f\r"}`},
		{"an invalid escape is kept for the strict reader to reject", `{'a':'\x'}`, `{"a":"\x"}`},
		{"double-quoted strings are copied", `{"a":"it's \"quoted\""}`, `{"a":"it's \"quoted\""}`},
		{"escaped single quote inside double quotes", `{"a":"it\'s"}`, `{"a":"it's"}`},
		{"mixed quoting", `{'a':"b",  "c" : 'd'}`, `{"a":"b",  "c" : "d"}`},
		{"multi-byte UTF-8 is copied", `{'a':'café ☕ 😀'}`, `{"a":"café ☕ 😀"}`},
		{"everything outside strings is verbatim", `{'n': 1.5e3, 'b': true, 'z': null, 'l': [1,'x']}`, `{"n": 1.5e3, "b": true, "z": null, "l": [1,"x"]}`},
		{"empty strings", `{'':''}`, `{"":""}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := RelaxedToStrict(nil, c.relaxed)
			if !ok || string(got) != c.strict {
				t.Fatalf("RelaxedToStrict(%s) = %s, %v; want %s", c.relaxed, got, ok, c.strict)
			}
		})
	}
}

func TestRelaxedToStrictRejectsUnterminatedStrings(t *testing.T) {
	for _, relaxed := range []string{`{'a':'b}`, `{'a':"b}`, `{'a':'b\'}`, `{'a':'b\`, `'`, `"`} {
		if got, ok := RelaxedToStrict(nil, relaxed); ok {
			t.Errorf("RelaxedToStrict(%s) = %s, true; want false", relaxed, got)
		}
	}
}

func TestRelaxedInnerDocumentKeepsEveryCharacterItMeans(t *testing.T) {
	// The inner document, as the client meant it: {'job_id':'it\'s','status':'say "hi" \\ then\nleave caf\u00e9 ☕ \ud83d\ude00'}
	body := `{"data": "{'job_id':'it\\'s','status':'say \"hi\" \\\\ then\\nleave caf\\u00e9 ☕ \\ud83d\\ude00'}"}`
	events, p := RequestReader{MaxBatchEvents: 10}.Read([]byte(body), JSON, fixedNow, nil)
	if p != nil {
		t.Fatal(p)
	}
	e := events[0]
	if e.JobID != "it's" || e.Status != "say \"hi\" \\ then\nleave café ☕ 😀" || e.HasContainerID {
		t.Fatalf("got job_id %q status %q container %v", e.JobID, e.Status, e.HasContainerID)
	}
}
