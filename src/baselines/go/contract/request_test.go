package contract

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

var fixedNow = time.Date(2026, 11, 22, 10, 0, 0, 123_456_700, time.UTC)

const classic2016 = `{"data": "{'job_id':'c4bb6d130003','container_id':'ab7b85dcac72','status':'Success: process exited with code 0.'}"}`

// Typed events of every kind, as tests build batches from them.
func typedJob(i int) string {
	return fmt.Sprintf(`{"type":"job","source":"s-%d","timestamp":"2026-11-22T10:00:00Z","job_id":"j-%d","status":"done"}`, i, i)
}

func typedMetric(i int) string {
	return fmt.Sprintf(`{"type":"metric","source":"s-%d","timestamp":"2026-11-22T10:00:00Z","name":"cpu","value":0.01,"unit":"ratio"}`, i)
}

func typedLog(i int) string {
	return fmt.Sprintf(`{"type":"log","source":"s-%d","timestamp":"2026-11-22T10:00:00Z","level":"info","message":"m-%d"}`, i, i)
}

func read(t *testing.T, body string, format Format) []Event {
	t.Helper()
	events, p := RequestReader{MaxBatchEvents: DefaultMaxBatchEvents}.Read([]byte(body), format, fixedNow, nil)
	if p != nil {
		t.Fatalf("Read(%s) = %v", body, p)
	}
	return events
}

func forwardBody(events []Event) string { return string(AppendEvents(nil, events)) }

func TestClassicPayloadNormalisesToAJobFromTheClassicSource(t *testing.T) {
	events := read(t, classic2016, JSON)
	want := `[{"type":"job","source":"classic","timestamp":"2026-11-22T10:00:00.1234567Z","received_at":"2026-11-22T10:00:00.1234567Z","job_id":"c4bb6d130003","container_id":"ab7b85dcac72","status":"Success: process exited with code 0."}]`
	if got := forwardBody(events); got != want {
		t.Fatalf("forward body\n got %s\nwant %s", got, want)
	}
}

func TestClassicInnerDocumentMayUseDoubleQuotesAndIgnoresOtherMembers(t *testing.T) {
	events := read(t, `{"data": "{\"job_id\":\"j1\",\"status\":\"ok\",\"extra\":[1,{\"x\":null}]}", "other": {"a": [true]}, "type": "metric"}`, JSON)
	if e := events[0]; e.Type != Job || e.Source != ClassicSource || e.JobID != "j1" || e.Status != "ok" || e.HasContainerID {
		t.Fatalf("got %+v", e)
	}
}

func TestTypedEventsNormaliseAsTheContractShows(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"type":"metric","source":"node-3","timestamp":"2026-11-22T10:00:00Z","name":"cpu","value":0.93,"unit":"ratio"}`,
			`{"type":"metric","source":"node-3","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:00.1234567Z","name":"cpu","value":0.93,"unit":"ratio"}`},
		{`{"type":"log","source":"api","timestamp":"2026-11-22T10:00:00Z","level":"WARN","message":"disk 91% full"}`,
			`{"type":"log","source":"api","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:00.1234567Z","level":"warn","message":"disk 91% full"}`},
		{`{"type":"JOB","source":"  b-1 ","timestamp":"2026-11-22T11:00:00+01:00","job_id":"j","status":"","extra":[1,2]}`,
			`{"type":"job","source":"b-1","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:00.1234567Z","job_id":"j","status":""}`},
		{`{"type":"job","source":"s","timestamp":"2026-11-22T10:00:00Z","job_id":"j","container_id":"","status":"s"}`,
			`{"type":"job","source":"s","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:00.1234567Z","job_id":"j","container_id":"","status":"s"}`},
		// Members of other types are not part of the normalised event.
		{`{"type":"metric","source":"n","timestamp":"2026-11-22T10:00:00.5Z","name":"big","value":123456789012345678901234567890,"job_id":"x","level":"info","message":"m"}`,
			`{"type":"metric","source":"n","timestamp":"2026-11-22T10:00:00.5Z","received_at":"2026-11-22T10:00:00.1234567Z","name":"big","value":1.2345678901234568e+29}`},
		{`{"type":"log","source":"a","timestamp":"2026-11-22T10:00:00.123Z","level":"Fatal","message":"ünïcödé \ud83d\ude00 \"q\" \\ \u0001"}`,
			`{"type":"log","source":"a","timestamp":"2026-11-22T10:00:00.123Z","received_at":"2026-11-22T10:00:00.1234567Z","level":"fatal","message":"ünïcödé 😀 \"q\" \\ \u0001"}`},
		// The same member twice: the last one counts. Escaped member names match. received_at is not an
		// incoming member, so whatever it holds is ignored.
		{`{"type":"bogus","type":"log","source":"a","timestamp":"2026-11-22T10:00:00Z","lev\u0065l":"trace","message":"m","received_at":5}`,
			`{"type":"log","source":"a","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:00.1234567Z","level":"trace","message":"m"}`},
		// data: null is no classic payload.
		{`{"data":null,"type":"metric","source":"n","timestamp":"2026-11-22T10:00:00Z","name":"t","value":-0.0}`,
			`{"type":"metric","source":"n","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:00.1234567Z","name":"t","value":-0}`},
	}
	for _, c := range cases {
		if got := forwardBody(read(t, c.in, JSON)); got != "["+c.want+"]" {
			t.Errorf("normalising %s\n got %s\nwant [%s]", c.in, got, c.want)
		}
	}
}

func TestTypeAndLevelMatchIgnoringCaseAsDotNetDoes(t *testing.T) {
	// OrdinalIgnoreCase compares upper-case mappings: dotless ı upper-cases to I.
	e := read(t, `{"type":"metrıc","source":"n","timestamp":"2026-11-22T10:00:00Z","name":"t","value":1}`, JSON)[0]
	if e.Type != Metric {
		t.Fatalf("type %v", e.Type)
	}
	if foldEquals("İnfo", "info") || foldEquals("jobs", "job") || foldEquals("jo", "job") || !foldEquals("ErRoR", "error") {
		t.Fatal("foldEquals disagrees with OrdinalIgnoreCase")
	}
}

func TestBatchesReadTheSameFromAJSONArrayAndNDJSON(t *testing.T) {
	var items []string
	for i := 0; i < 99; i++ {
		items = append(items, []string{typedJob(i), typedMetric(i), typedLog(i)}[i%3])
	}
	items = append(items, classic2016)
	fromArray := read(t, "[\n"+strings.Join(items, ",\n")+"\n]", JSON)
	fromLines := read(t, "\uFEFF\n\r\n"+strings.Join(items, "\r\n\n")+"\n", NDJSON)
	if len(fromArray) != 100 || forwardBody(fromArray) != forwardBody(fromLines) {
		t.Fatalf("array gave %d events, NDJSON %d; bodies equal: %v", len(fromArray), len(fromLines), forwardBody(fromArray) == forwardBody(fromLines))
	}
}

func TestAByteOrderMarkAndSurroundingWhitespaceAreAccepted(t *testing.T) {
	if e := read(t, "\uFEFF \r\n"+classic2016+"\n\t ", JSON)[0]; e.JobID != "c4bb6d130003" {
		t.Fatalf("got %+v", e)
	}
}

func TestLimitsCountUTF16CodeUnits(t *testing.T) {
	body := func(source string) string {
		return `{"type":"job","source":"` + source + `","timestamp":"2026-11-22T10:00:00Z","job_id":"j","status":"s"}`
	}
	read(t, body(strings.Repeat("é", 256)), JSON) // 512 bytes, 256 code units
	read(t, body(strings.Repeat("s", 256)), JSON)
	for _, source := range []string{strings.Repeat("s", 257), strings.Repeat("😀", 129)} {
		_, p := RequestReader{MaxBatchEvents: 10}.Read([]byte(body(source)), JSON, fixedNow, nil)
		if p == nil || p.Kind != InvalidField || p.Field != "$.source" {
			t.Errorf("source of %d bytes: %v", len(source), p)
		}
	}
}

func TestBadBodiesGetTheContractsProblem(t *testing.T) {
	const ts = `"timestamp":"2026-11-22T10:00:00Z"`
	job := func(members string) string { return `{"type":"job","source":"s",` + ts + `,` + members + `}` }
	metric := func(members string) string { return `{"type":"metric","source":"s",` + ts + `,` + members + `}` }
	logEvent := func(members string) string { return `{"type":"log","source":"s",` + ts + `,` + members + `}` }
	nested := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

	cases := []struct {
		body   string
		format Format
		kind   Kind
		field  string
	}{
		{"", JSON, EmptyBody, ""},
		{"  \n ", JSON, EmptyBody, ""},
		{"\uFEFF", JSON, EmptyBody, ""},
		{"[]", JSON, EmptyBody, ""},
		{"[ \n ]", JSON, EmptyBody, ""},
		{"\n\n \r\n", NDJSON, EmptyBody, ""},
		{`{"type":`, JSON, MalformedJSON, "$.type"},
		{logEvent(`"level":"info","message":"a\u0000b"`), JSON, InvalidField, "$.message"},
		{"{\"type\":\"job\",\u0000\"source\":\"s\"}", JSON, MalformedJSON, "$.type"},
		{`{"type":"job"} trailing`, JSON, MalformedJSON, "$"},
		{`{"type":"job",}`, JSON, MalformedJSON, "$.type"},
		{`{"type" "job"}`, JSON, MalformedJSON, "$"},
		{`{'type':'job'}`, JSON, MalformedJSON, "$"},
		{`[` + typedJob(0) + `,]`, JSON, MalformedJSON, "$[1]"},
		{`[` + typedJob(0) + ` ` + typedJob(1) + `]`, JSON, MalformedJSON, "$[0]"},
		{`[` + typedJob(0) + `] x`, JSON, MalformedJSON, "$"},
		{`[` + typedJob(0), JSON, MalformedJSON, "$[0]"},
		{metric(`"name":"n","value":01`), JSON, MalformedJSON, "$.value"},
		{metric(`"name":"n","value":1.`), JSON, MalformedJSON, "$.value"},
		{metric(`"name":"n","value":1x`), JSON, MalformedJSON, "$.value"},
		{job(`"job_id":"j","status":"a` + "\n" + `b"`), JSON, MalformedJSON, "$.status"},
		{job(`"job_id":"j","status":"\x"`), JSON, MalformedJSON, "$.status"},
		{job(`"job_id":"j","status":"\u12"`), JSON, MalformedJSON, "$.status"},
		{job(`"job_id":"j","status":tru`), JSON, MalformedJSON, "$.status"},
		{job(`"job_id":"j","status":"s","extra":` + nested(64)), JSON, MalformedJSON, "$.extra"},
		{"5x", JSON, MalformedJSON, "$"},
		{"nul", JSON, MalformedJSON, "$"},
		{"null x", JSON, MalformedJSON, "$"},

		{`[{"data": 1}]`, JSON, InvalidField, "$[0].data"},
		{"null", JSON, InvalidField, "$"},
		{"[null]", JSON, InvalidField, "$[0]"},
		{"[[1]]", JSON, InvalidField, "$[0]"},
		{`"just a string"`, JSON, InvalidField, "$"},
		{"5", JSON, InvalidField, "$"},
		{"true", JSON, InvalidField, "$"},
		{`[1, {"type":`, JSON, InvalidField, "$[0]"},        // a value of the wrong type stops the reading there
		{`[{}, {"type":`, JSON, MalformedJSON, "$[1].type"}, // a JSON error anywhere wins over a validation problem
		{`[1`, JSON, MalformedJSON, "$[0]"},
		{"{}", JSON, MissingField, "$.type"},
		{`{"Type":"job","source":"s",` + ts + `,"job_id":"j","status":"s"}`, JSON, MissingField, "$.type"},
		{`{"type":null}`, JSON, MissingField, "$.type"},
		{`{"type":"trace","source":"s",` + ts + `}`, JSON, UnknownType, "$.type"},
		{`{"type":"jobs"}`, JSON, UnknownType, "$.type"},
		{`{"type":5}`, JSON, InvalidField, "$.type"},
		{`{"type":["job"]}`, JSON, InvalidField, "$.type"},
		{`{"type":"job",` + ts + `,"job_id":"j","status":"s"}`, JSON, MissingField, "$.source"},
		{`{"type":"job","source":" ",` + ts + `,"job_id":"j","status":"s"}`, JSON, InvalidField, "$.source"},
		{`{"type":"job","source":"\u00a0\u2003",` + ts + `,"job_id":"j","status":"s"}`, JSON, InvalidField, "$.source"},
		{`{"type":"job","source":"s","job_id":"j","status":"s"}`, JSON, MissingField, "$.timestamp"},
		{`{"type":"job","source":"s","timestamp":null,"job_id":"j","status":"s"}`, JSON, MissingField, "$.timestamp"},
		{`{"type":"job","source":"s","timestamp":"yesterday","job_id":"j","status":"s"}`, JSON, InvalidField, "$.timestamp"},
		{`{"type":"job","source":"s","timestamp":"2026-11-22T10:00:00","job_id":"j","status":"s"}`, JSON, InvalidField, "$.timestamp"},
		{`{"type":"job","source":"s","timestamp":1700000000,"job_id":"j","status":"s"}`, JSON, InvalidField, "$.timestamp"},
		{`{"type":"job","source":"s","timestamp":"0001-01-01T01:00:00+01:00","job_id":"j","status":"s"}`, JSON, InvalidField, "$.timestamp"},
		{job(`"status":"s"`), JSON, MissingField, "$.job_id"},
		{job(`"job_id":123,"status":"s"`), JSON, InvalidField, "$.job_id"},
		{job(`"job_id":"","status":"s"`), JSON, InvalidField, "$.job_id"},
		{job(`"job_id":"` + strings.Repeat("j", 257) + `","status":"s"`), JSON, InvalidField, "$.job_id"},
		{job(`"job_id":"j"`), JSON, MissingField, "$.status"},
		{job(`"job_id":"j","status":true`), JSON, InvalidField, "$.status"},
		{job(`"job_id":"j","status":"` + strings.Repeat("s", 4097) + `"`), JSON, InvalidField, "$.status"},
		{job(`"job_id":"j","status":"s","container_id":5`), JSON, InvalidField, "$.container_id"},
		{job(`"job_id":"j","status":"s","container_id":"` + strings.Repeat("c", 257) + `"`), JSON, InvalidField, "$.container_id"},
		{job(`"job_id":"j","status":"s","value":"x"`), JSON, InvalidField, "$.value"}, // typed like the .NET document, even when unused
		{metric(`"value":1`), JSON, MissingField, "$.name"},
		{metric(`"name":" ","value":1`), JSON, InvalidField, "$.name"},
		{metric(`"name":"cpu"`), JSON, MissingField, "$.value"},
		{metric(`"name":"cpu","value":null`), JSON, MissingField, "$.value"},
		{metric(`"name":"cpu","value":"0.5"`), JSON, InvalidField, "$.value"},
		{metric(`"name":"cpu","value":1e400`), JSON, InvalidField, "$.value"},
		{metric(`"name":"cpu","value":-1e400`), JSON, InvalidField, "$.value"},
		{metric(`"name":"cpu","value":1,"unit":"` + strings.Repeat("u", 257) + `"`), JSON, InvalidField, "$.unit"},
		{metric(`"name":"cpu","value":1,"unit":{}`), JSON, InvalidField, "$.unit"},
		{logEvent(`"message":"m"`), JSON, MissingField, "$.level"},
		{logEvent(`"level":"loud","message":"m"`), JSON, InvalidField, "$.level"},
		{logEvent(`"level":"info"`), JSON, MissingField, "$.message"},
		{logEvent(`"level":"info","message":"` + strings.Repeat("m", 4097) + `"`), JSON, InvalidField, "$.message"},
		{logEvent(`"level":"info","message":"\ud800"`), JSON, InvalidField, "$.message"},
		{logEvent(`"level":"info","message":"\udc00\ud800"`), JSON, InvalidField, "$.message"},
		{logEvent(`"level":"info","message":"\ud83d x"`), JSON, InvalidField, "$.message"},
		{logEvent(`"level":"info","message":"` + "\xc3\x28" + `"`), JSON, InvalidField, "$.message"},

		{`{"data": "{'status':'ok'}"}`, JSON, MissingField, "$.data.job_id"},
		{`{"data": "{'job_id':'x','status':'unterminated}"}`, JSON, MalformedJSON, "$.data"},
		{`{"data": "{'job_id': 12, 'status':'s'}"}`, JSON, InvalidField, "$.data.job_id"},
		{`{"data": "{'job_id':'x','status':'s','timestamp':'soon'}"}`, JSON, InvalidField, "$.data.timestamp"},
		{`{"data": "'not an object'"}`, JSON, InvalidField, "$.data"},
		{`{"data": "null"}`, JSON, InvalidField, "$.data"},
		{`{"data": ""}`, JSON, MalformedJSON, "$.data"},
		{`{"data": "{'job_id':'x','status':'s'"}`, JSON, MalformedJSON, "$.data.status"},
		{`{"data": "{'job_id':'x','status':'s'} x"}`, JSON, MalformedJSON, "$.data"},
		{`{"data": "{'job_id':'','status':'s'}"}`, JSON, InvalidField, "$.data.job_id"},
		{`{"data": "{'job_id':'j','status':'s','container_id':'` + strings.Repeat("c", 257) + `'}"}`, JSON, InvalidField, "$.data.container_id"},
		{`{"data": "{'job_id':'j','status':'` + strings.Repeat("s", 4097) + `'}"}`, JSON, InvalidField, "$.data"},
		{`{"data": "\ud800"}`, JSON, InvalidField, "$.data"},
		{`[{"data": "{'status':'s'}"}]`, JSON, MissingField, "$[0].data.job_id"},
		{"[" + typedJob(0) + "," + strings.Replace(typedJob(1), `"job_id"`, `"jobid"`, 1) + "]", JSON, MissingField, "$[1].job_id"},
		{"[" + typedJob(0) + `,{}, {"type":"x"}]`, JSON, MissingField, "$[1].type"},
		{typedJob(0) + "\n\n" + strings.Replace(typedMetric(1), "0.01", `"x"`, 1) + "\n", NDJSON, InvalidField, "$[1].value"},
		{typedJob(0) + "\n{\"type\":", NDJSON, MalformedJSON, "$[1].type"},
		{typedJob(0) + "\n[" + typedJob(1) + "]", NDJSON, InvalidField, "$[1]"},
		{typedJob(0) + "\n\n" + typedJob(1) + " " + typedJob(2), NDJSON, MalformedJSON, "$[1]"},
		{"\n" + `{"data": "{'status':'s'}"}`, NDJSON, MissingField, "$[0].data.job_id"},
	}
	for _, c := range cases {
		events, p := RequestReader{MaxBatchEvents: 10}.Read([]byte(c.body), c.format, fixedNow, nil)
		name := c.body
		if len(name) > 90 {
			name = name[:90] + "…"
		}
		switch {
		case p == nil:
			t.Errorf("%s: accepted %d events; want %s", name, len(events), c.kind.Type())
		case p.Kind != c.kind || p.Field != c.field:
			t.Errorf("%s: got %s field %q (%s); want %s field %q", name, p.Kind.Type(), p.Field, p.Detail, c.kind.Type(), c.field)
		case strings.TrimSpace(p.Detail) == "":
			t.Errorf("%s: no detail", name)
		}
	}
}

func TestMembersOutsideTheSchemaAreOnlyCheckedForSyntax(t *testing.T) {
	extra := `"x":{"a":[1,-2.5e-3,true,false,null,"\u00e9\ud83d\ude00 \"\\\/\b\f\n\r\t"]},"bad_utf8":"` + "\xff" + `","lone":"\ud800"`
	deep := `"deep":` + strings.Repeat("[", 63) + strings.Repeat("]", 63)
	read(t, `{"type":"log","source":"s","timestamp":"2026-11-22T10:00:00Z","level":"info","message":"m",`+extra+`,`+deep+`}`, JSON)
}

func TestBatchesOverTheLimitAreTooLarge(t *testing.T) {
	reader := RequestReader{MaxBatchEvents: 10}
	batch := func(n int, sep string) string {
		items := make([]string, n)
		for i := range items {
			items[i] = typedLog(i)
		}
		return strings.Join(items, sep)
	}
	for name, c := range map[string]struct {
		body   string
		format Format
	}{
		"array":                     {"[" + batch(11, ",") + "]", JSON},
		"NDJSON":                    {batch(11, "\n"), NDJSON},
		"array with invalid events": {"[{}," + batch(10, ",") + "]", JSON},
	} {
		if _, p := reader.Read([]byte(c.body), c.format, fixedNow, nil); p == nil || p.Kind != PayloadTooLarge || p.Status() != 413 {
			t.Errorf("%s: got %v; want payload-too-large", name, p)
		}
	}
	if events, p := reader.Read([]byte("["+batch(10, ",")+"]"), JSON, fixedNow, nil); p != nil || len(events) != 10 {
		t.Errorf("10 events: %v", p)
	}
	if events, p := reader.Read([]byte(batch(10, "\n\n")), NDJSON, fixedNow, nil); p != nil || len(events) != 10 {
		t.Errorf("10 lines: %v", p)
	}
}

func TestForwardedBodiesAreReCheckedOnTheBackEnd(t *testing.T) {
	one := `{"type":"log","source":"a","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:01Z","level":"info","message":"m","data":5}`
	types, p := ReadForwarded([]byte(one), nil)
	if p != nil || len(types) != 1 || types[0] != Log {
		t.Fatalf("single: %v %v", types, p)
	}
	types, p = ReadForwarded([]byte("\uFEFF["+one+","+typedJob(1)+","+typedMetric(2)+"]\n"), nil)
	if p != nil || len(types) != 3 || types[1] != Job || types[2] != Metric {
		t.Fatalf("array: %v %v", types, p)
	}
	// A front-end's own forward body reads back.
	events := read(t, "["+classic2016+","+typedMetric(0)+","+typedLog(1)+"]", JSON)
	if types, p = ReadForwarded(AppendEvents(nil, events), nil); p != nil || len(types) != 3 {
		t.Fatalf("forward body: %v %v", types, p)
	}

	cases := []struct {
		body  string
		kind  Kind
		field string
	}{
		{`[{"type":"job","source":"a","timestamp":"2026-11-22T10:00:00Z","status":"s"}]`, MissingField, "$[0].job_id"},
		{`[{"type":"bogus","source":"a","timestamp":"2026-11-22T10:00:00Z"}]`, UnknownType, "$[0].type"},
		{`[{"source":"a","timestamp":"2026-11-22T10:00:00Z"}]`, MissingField, "$[0].type"},
		{`{"type":"metric","source":"a","timestamp":"2026-11-22T10:00:00Z","name":"n"}`, MissingField, "$.value"},
		{`[{"type":"log","source":"a","level":"info","message":"m"}]`, MissingField, "$[0].timestamp"},
		{`[{"type":"log","source":"a","timestamp":"2026-11-22T10:00:00Z","received_at":"later","level":"info","message":"m"}]`, InvalidField, "$[0].received_at"},
		{`[` + typedJob(0) + `,null]`, InvalidField, "$[1]"},
		{`null`, InvalidField, "$"},
		{"[]", EmptyBody, ""},
		{" ", EmptyBody, ""},
		{"[1", MalformedJSON, "$[0]"},
		{"[" + typedJob(0) + "] x", MalformedJSON, "$"},
	}
	for _, c := range cases {
		if _, p := ReadForwarded([]byte(c.body), nil); p == nil || p.Kind != c.kind || p.Field != c.field {
			t.Errorf("%s: got %v; want %s at %q", c.body, p, c.kind.Type(), c.field)
		}
	}
}
