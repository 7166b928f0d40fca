package ingest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

const classic = `{"data": "{'job_id':'c4bb6d130003','container_id':'ab7b85dcac72','status':'Success: process exited with code 0.'}"}`

var receivedAt = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func readOneEvent(t *testing.T, body string) Event {
	t.Helper()
	events, problem := Reader{MaxBatchEvents: 1000}.Read(JSON, []byte(body), receivedAt)
	if problem != nil {
		t.Fatalf("rejected %s: %+v", body, problem)
	}
	if len(events) != 1 {
		t.Fatalf("%d events", len(events))
	}
	return events[0]
}

func TestReadsTheClassicPayloadAsAJob(t *testing.T) {
	e := readOneEvent(t, classic)
	if e.Type != TypeJob || e.Source != "classic" || *e.JobID != "c4bb6d130003" || *e.ContainerID != "ab7b85dcac72" ||
		*e.Status != "Success: process exited with code 0." || !e.Timestamp.Equal(receivedAt) || !e.ReceivedAt.Equal(receivedAt) {
		t.Fatalf("unexpected event %+v", e)
	}
}

func TestKeepsQuotesAndEscapesInsideSingleQuotedValues(t *testing.T) {
	e := readOneEvent(t, `{"data": "{'job_id':'it\\'s','status':'say \"hi\" \\\\ then\\nleave caf\\u00e9 ☕'}"}`)
	if *e.JobID != "it's" || *e.Status != "say \"hi\" \\ then\nleave café ☕" || e.ContainerID != nil {
		t.Fatalf("unexpected event %+v / %q", e, *e.Status)
	}
}

func TestNormalisesTypedEvents(t *testing.T) {
	job := readOneEvent(t, `{"type":"JOB","source":"  b-1 ","timestamp":"2026-11-22T11:00:00+01:00","job_id":"j","status":"done","extra":[1,2]}`)
	if job.Type != TypeJob || job.Source != "b-1" || !job.Timestamp.Equal(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)) {
		t.Fatalf("unexpected job %+v", job)
	}
	metric := readOneEvent(t, `{"type":"metric","source":"n","timestamp":"2026-11-22T10:00:00Z","name":"cpu","value":-1.5e3}`)
	if *metric.Value != -1500 || metric.Unit != nil {
		t.Fatalf("unexpected metric %+v", metric)
	}
	log := readOneEvent(t, `{"type":"log","source":"a","timestamp":"2026-11-22T10:00:00.123Z","level":"WARN","message":"ünïcödé \ud83d\ude00"}`)
	if *log.Level != "warn" || *log.Message != "ünïcödé 😀" {
		t.Fatalf("unexpected log %+v", log)
	}
}

func TestTheForwardBodyHasTheContractsShape(t *testing.T) {
	e := readOneEvent(t, classic)
	body, _ := json.Marshal([]Event{e})
	want := `[{"type":"job","source":"classic","timestamp":"2026-11-22T12:00:00Z","received_at":"2026-11-22T12:00:00Z","job_id":"c4bb6d130003","container_id":"ab7b85dcac72","status":"Success: process exited with code 0."}]`
	if string(body) != want {
		t.Fatalf("got %s", body)
	}
	back, problem := ReadForward(body)
	if problem != nil || len(back) != 1 || *back[0].JobID != "c4bb6d130003" {
		t.Fatalf("could not read it back: %+v %+v", back, problem)
	}
}

func mixed(i int) string {
	switch i % 3 {
	case 0:
		return fmt.Sprintf(`{"type":"job","source":"builder-%d","timestamp":"2026-11-22T10:00:00Z","job_id":"job-%d","container_id":"c","status":"ok"}`, i%8, i)
	case 1:
		return fmt.Sprintf(`{"type":"metric","source":"node-%d","timestamp":"2026-11-22T10:00:00Z","name":"cpu","value":%g,"unit":"ratio"}`, i%8, float64(i%100)/100)
	}
	return fmt.Sprintf(`{"type":"log","source":"api-%d","timestamp":"2026-11-22T10:00:00Z","level":"warn","message":"request %d"}`, i%8, i)
}

func batch(n int, separator string) string {
	items := make([]string, n)
	for i := range items {
		items[i] = mixed(i)
	}
	return strings.Join(items, separator)
}

func TestReadsBatchesInBothFormats(t *testing.T) {
	reader := Reader{MaxBatchEvents: 1000}
	array, p1 := reader.Read(JSON, []byte("["+batch(100, ",")+"]"), receivedAt)
	lines, p2 := reader.Read(NDJSON, []byte("\n\r\n"+batch(100, "\r\n\n")+"\n"), receivedAt)
	if p1 != nil || p2 != nil || len(array) != 100 || len(lines) != 100 {
		t.Fatalf("%d %d %+v %+v", len(array), len(lines), p1, p2)
	}
	var counter Counter
	counter.Record(array)
	if s := counter.Snapshot(); s.Total != 100 || s.ByType.Job != 34 || s.ByType.Metric != 33 || s.ByType.Log != 33 {
		t.Fatalf("counts %+v", s)
	}
}

func TestRejectsBadBodiesWithTheContractsProblem(t *testing.T) {
	cases := []struct {
		body   string
		format Format
		kind   Kind
		field  string
	}{
		{"", JSON, EmptyBody, ""},
		{"  \n ", JSON, EmptyBody, ""},
		{"[]", JSON, EmptyBody, ""},
		{"\n\n", NDJSON, EmptyBody, ""},
		{`{"type":`, JSON, MalformedJSON, ""},
		{`{"type":"job"} trailing`, JSON, MalformedJSON, ""},
		{`[{"data": 1}]`, JSON, InvalidField, "$[0].data"},
		{`null`, JSON, InvalidField, "$"},
		{`[null]`, JSON, InvalidField, "$[0]"},
		{`"just a string"`, JSON, InvalidField, "$"},
		{`{}`, JSON, MissingField, "$.type"},
		{`{"type":"trace","source":"s","timestamp":"2026-11-22T10:00:00Z"}`, JSON, UnknownType, "$.type"},
		{`{"type":"job","timestamp":"2026-11-22T10:00:00Z","job_id":"j","status":"s"}`, JSON, MissingField, "$.source"},
		{`{"type":"job","source":" ","timestamp":"2026-11-22T10:00:00Z","job_id":"j","status":"s"}`, JSON, InvalidField, "$.source"},
		{`{"type":"job","source":"s","job_id":"j","status":"s"}`, JSON, MissingField, "$.timestamp"},
		{`{"type":"job","source":"s","timestamp":"yesterday","job_id":"j","status":"s"}`, JSON, InvalidField, "$.timestamp"},
		{`{"type":"job","source":"s","timestamp":"2026-11-22T10:00:00Z","status":"s"}`, JSON, MissingField, "$.job_id"},
		{`{"type":"job","source":"s","timestamp":"2026-11-22T10:00:00Z","job_id":123,"status":"s"}`, JSON, InvalidField, "$.job_id"},
		{`{"type":"job","source":"s","timestamp":"2026-11-22T10:00:00Z","job_id":"j","status":true}`, JSON, InvalidField, "$.status"},
		{`{"type":"metric","source":"s","timestamp":"2026-11-22T10:00:00Z","name":"cpu"}`, JSON, MissingField, "$.value"},
		{`{"type":"metric","source":"s","timestamp":"2026-11-22T10:00:00Z","name":"cpu","value":"0.5"}`, JSON, InvalidField, "$.value"},
		{`{"type":"metric","source":"s","timestamp":"2026-11-22T10:00:00Z","name":"cpu","value":1e400}`, JSON, InvalidField, "$.value"},
		{`{"type":"log","source":"s","timestamp":"2026-11-22T10:00:00Z","level":"loud","message":"m"}`, JSON, InvalidField, "$.level"},
		{`{"type":"log","source":"s","timestamp":"2026-11-22T10:00:00Z","level":"info"}`, JSON, MissingField, "$.message"},
		{`{"data": "{'status':'ok'}"}`, JSON, MissingField, "$.data.job_id"},
		{`{"data": "{'job_id':'x','status':'unterminated}"}`, JSON, MalformedJSON, ""},
		{`{"data": "{'job_id': 12, 'status':'s'}"}`, JSON, InvalidField, "$.data.job_id"},
		{`{"data": "'not an object'"}`, JSON, InvalidField, "$.data"},
		{`{"data": "{'job_id':'x','status':'s'"}`, JSON, MalformedJSON, ""},
		{"[" + mixed(0) + "," + strings.Replace(mixed(3), `"job_id"`, `"jobid"`, 1) + "]", JSON, MissingField, "$[1].job_id"},
		{mixed(0) + "\n\n" + strings.Replace(mixed(1), `"value":0.01`, `"value":"x"`, 1) + "\n", NDJSON, InvalidField, "$[1].value"},
		{mixed(0) + "\n{\"type\":", NDJSON, MalformedJSON, ""},
		{`[{"data": "{'status':'s'}"}]`, JSON, MissingField, "$[0].data.job_id"},
		{`{"type":"job","source":"` + strings.Repeat("s", 257) + `","timestamp":"2026-11-22T10:00:00Z","job_id":"j","status":"s"}`, JSON, InvalidField, "$.source"},
		{"{\"type\":\"log\",\"source\":\"s\",\"timestamp\":\"2026-11-22T10:00:00Z\",\"level\":\"info\",\"message\":\"\xc3\x28\"}", JSON, MalformedJSON, ""},
	}
	for _, c := range cases {
		_, problem := Reader{MaxBatchEvents: 1000}.Read(c.format, []byte(c.body), receivedAt)
		if !problem.Is(c.kind) || problem.Status != 400 || problem.Detail == "" {
			t.Errorf("%s: got %+v, want kind %d", c.body, problem, c.kind)
			continue
		}
		if c.field != "" && problem.Field != c.field {
			t.Errorf("%s: field %q, want %q", c.body, problem.Field, c.field)
		}
	}
}

func TestRejectsBatchesOverTheLimitAsTooLarge(t *testing.T) {
	reader := Reader{MaxBatchEvents: 10}
	_, array := reader.Read(JSON, []byte("["+batch(11, ",")+"]"), receivedAt)
	_, lines := reader.Read(NDJSON, []byte(batch(11, "\n")), receivedAt)
	if !array.Is(PayloadTooLarge) || !lines.Is(PayloadTooLarge) || array.Status != 413 {
		t.Fatalf("%+v %+v", array, lines)
	}
	if _, ok := reader.Read(JSON, []byte("["+batch(10, ",")+"]"), receivedAt); ok != nil {
		t.Fatalf("10 events refused: %+v", ok)
	}
}

func TestTheBackEndRejectsEventsThatAreNotNormalised(t *testing.T) {
	cases := []struct {
		body  string
		kind  Kind
		field string
	}{
		{`[{"type":"job","source":"a","timestamp":"2026-11-22T10:00:00Z","status":"s"}]`, MissingField, "$[0].job_id"},
		{`[{"type":"bogus","source":"a","timestamp":"2026-11-22T10:00:00Z"}]`, InvalidField, "$[0].type"},
		{`{"type":"metric","source":"a","timestamp":"2026-11-22T10:00:00Z","name":"n"}`, MissingField, "$.value"},
		{`[{"type":"log","source":"a","level":"info","message":"m"}]`, MissingField, "$[0].timestamp"},
		{`[]`, EmptyBody, ""},
		{`[1`, MalformedJSON, ""},
	}
	for _, c := range cases {
		_, problem := ReadForward([]byte(c.body))
		if !problem.Is(c.kind) || (c.field != "" && problem.Field != c.field) {
			t.Errorf("%s: got %+v", c.body, problem)
		}
	}
}

func TestContentTypes(t *testing.T) {
	for _, ct := range []string{"application/json", "Application/JSON", "application/json; charset=utf-8", `application/json;charset="UTF-8"`, "application/x-ndjson; charset=utf8"} {
		if _, ok := ParseContentType(ct); !ok {
			t.Errorf("refused %q", ct)
		}
	}
	for _, ct := range []string{"", "text/plain", "application/xml", "application/json; charset=iso-8859-1", "application/jsonx"} {
		if _, ok := ParseContentType(ct); ok {
			t.Errorf("accepted %q", ct)
		}
	}
}

func TestADropperLosesExactlyOneEventInN(t *testing.T) {
	d := &Dropper{OneIn: 10}
	kept := 0
	for r := 0; r < 7; r++ {
		events := make([]Event, 15)
		kept += len(d.Filter(events))
	}
	if kept != 105-10 {
		t.Fatalf("kept %d", kept)
	}
}
