package e2etest

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"ingest/contract"
	"ingest/service"
)

// FrontEnd is one Go front-end variant under test.
type FrontEnd struct {
	Name  string
	Stack service.Stack
	// Args are the variant's own flags, e.g. -client per-request.
	Args []string
	// Start serves a front-end for c on a loopback port until the test ends and returns its base URL.
	Start func(t testing.TB, c *service.Config) string
}

func (f FrontEnd) start(t testing.TB, args ...string) string {
	t.Helper()
	return f.Start(t, Config(t, f.Stack, append(append([]string{}, f.Args...), args...)...))
}

// Run is the whole suite against one front-end variant.
func Run(t *testing.T, f FrontEnd) {
	t.Run("AcceptsEveryShapeAndTheBackEndCountsExactly", f.acceptsEveryShape)
	t.Run("RejectsBadInputWithTheContractsProblemAndPersistsNothing", f.rejectsBadInput)
	t.Run("BodiesAndBatchesOverTheLimitsAre413", f.limits)
	t.Run("BackEndDownIs502", f.backEndDown)
	t.Run("BackEndAnsweringAnErrorIs502", f.backEndError)
	t.Run("BackEndUnavailableIs503WithItsRetryAfter", f.backEndUnavailable)
	t.Run("SlowBackEndIs504", f.slowBackEnd)
	t.Run("EveryBackEndGetsEveryEvent", f.everyBackEnd)
	t.Run("ReferenceEndpointsAnswerAsTheContractSays", f.referenceEndpoints)
}

func (f FrontEnd) acceptsEveryShape(t *testing.T) {
	backEnd := StartBackEnd(t)
	url := f.start(t, "-backends", backEnd) + service.IngestEventPath
	var want contract.Stats

	Post(t, url, JSON, Classic).Want(t, http.StatusOK, JSON, `{"accepted":1}`)
	want.Job++
	for i, contentType := range []string{JSON, "application/json; charset=utf-8", "Application/JSON;charset=\"UTF-8\""} {
		event, typ := Event(i)
		Post(t, url, contentType, event).Want(t, http.StatusOK, JSON, `{"accepted":1}`)
		add(&want, typ, 1)
	}

	array, counts := Batch(100, ",")
	Post(t, url, JSON, "["+array+"]").Want(t, http.StatusOK, JSON, `{"accepted":100}`)
	want = plus(want, counts)
	lines, counts := Batch(100, "\n\n")
	Post(t, url, NDJSON, lines+"\n").Want(t, http.StatusOK, JSON, `{"accepted":100}`)
	want = plus(want, counts)
	Post(t, url, NDJSON+"; charset=utf-8", Classic).Want(t, http.StatusOK, JSON, `{"accepted":1}`)
	want.Job++

	if got := Stats(t, backEnd); got != want {
		t.Fatalf("back-end counted %+v; want %+v", got, want)
	}
}

func (f FrontEnd) rejectsBadInput(t *testing.T) {
	backEnd := StartBackEnd(t)
	url := f.start(t, "-backends", backEnd) + service.IngestEventPath
	job := func(members string) string {
		return `{"type":"job","source":"s",` + ts + `,` + members + `}`
	}
	third, _ := Event(2)
	cases := []struct {
		name, contentType, body string
		status                  int
		slug, field             string
	}{
		{"malformed JSON", JSON, `{"type":"job",`, 400, "malformed-json", "$.type"},
		{"trailing content", JSON, Classic + " x", 400, "malformed-json", "$"},
		{"malformed classic inner document", JSON, `{"data": "{'job_id':'x','status':'unterminated}"}`, 400, "malformed-json", "$.data"},
		{"empty body", JSON, "", 400, "empty-body", ""},
		{"blank body", NDJSON, "\n \r\n", 400, "empty-body", ""},
		{"empty batch", JSON, "[]", 400, "empty-body", ""},
		{"text/plain", "text/plain", Classic, 415, "unsupported-media-type", ""},
		{"no content type", "", Classic, 415, "unsupported-media-type", ""},
		{"other charset", "application/json; charset=iso-8859-1", Classic, 415, "unsupported-media-type", ""},
		{"unknown type", JSON, `{"type":"trace","source":"s",` + ts + `}`, 400, "unknown-type", "$.type"},
		{"missing type", JSON, `{"source":"s"}`, 400, "missing-field", "$.type"},
		{"missing field", JSON, job(`"status":"s"`), 400, "missing-field", "$.job_id"},
		{"missing field in the classic inner document", JSON, `{"data": "{'status':'ok'}"}`, 400, "missing-field", "$.data.job_id"},
		{"wrong type", JSON, job(`"job_id":123,"status":"s"`), 400, "invalid-field", "$.job_id"},
		{"wrong type in a number", JSON, `{"type":"metric","source":"s",` + ts + `,"name":"n","value":"0.5"}`, 400, "invalid-field", "$.value"},
		{"bad timestamp", JSON, `{"type":"log","source":"s","timestamp":"yesterday","level":"info","message":"m"}`, 400, "invalid-field", "$.timestamp"},
		{"too long", JSON, job(`"job_id":"` + strings.Repeat("j", 257) + `","status":"s"`), 400, "invalid-field", "$.job_id"},
		{"invalid event in an array batch", JSON, "[" + Classic + "," + job(`"status":"s"`) + "]", 400, "missing-field", "$[1].job_id"},
		{"invalid line in an NDJSON batch", NDJSON, Classic + "\n\n" + strings.Replace(third, `"level":"WARN"`, `"level":"loud"`, 1), 400, "invalid-field", "$[1].level"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			Post(t, url, c.contentType, c.body).WantProblem(t, c.status, c.slug, c.field)
		})
	}
	if got := Stats(t, backEnd); got.Total() != 0 {
		t.Fatalf("rejected requests reached the sink: %+v", got)
	}
}

func (f FrontEnd) limits(t *testing.T) {
	backEnd := StartBackEnd(t)
	base := f.start(t, "-backends", backEnd, "-max-body-bytes", "1024", "-max-batch-events", "10")
	url := base + service.IngestEventPath

	t.Run("declared length over the limit", func(t *testing.T) {
		// Only the headers are sent: the service must refuse on Content-Length alone, and close.
		a := RawRequest(t, base, "POST /ingest/event HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n")
		a.WantProblem(t, http.StatusRequestEntityTooLarge, "payload-too-large", "")
		if !a.Close {
			t.Fatal("no Connection: close")
		}
	})
	t.Run("body over the limit", func(t *testing.T) {
		body := `{"data":"` + strings.Repeat("x", 2000) + `"}`
		a := RawRequest(t, base, fmt.Sprintf("POST /ingest/event HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body))
		a.WantProblem(t, http.StatusRequestEntityTooLarge, "payload-too-large", "")
	})
	t.Run("unsupported content type wins over the size", func(t *testing.T) {
		a := RawRequest(t, base, "POST /ingest/event HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 1048576\r\n\r\n")
		a.WantProblem(t, http.StatusUnsupportedMediaType, "unsupported-media-type", "")
	})
	t.Run("body at the limit", func(t *testing.T) {
		body := Classic + strings.Repeat(" ", 1024-len(Classic))
		Post(t, url, JSON, body).Want(t, http.StatusOK, JSON, `{"accepted":1}`)
	})
	t.Run("batches over the event limit", func(t *testing.T) {
		var small []string
		for i := 0; i < 11; i++ {
			small = append(small, `{"data":"{'job_id':'j','status':''}"}`)
		}
		Post(t, url, JSON, "["+strings.Join(small, ",")+"]").WantProblem(t, http.StatusRequestEntityTooLarge, "payload-too-large", "")
		Post(t, url, NDJSON, strings.Join(small, "\n")).WantProblem(t, http.StatusRequestEntityTooLarge, "payload-too-large", "")
		Post(t, url, NDJSON, strings.Join(small[:10], "\n")).Want(t, http.StatusOK, JSON, `{"accepted":10}`)
	})
	if got := Stats(t, backEnd); got.Total() != 11 {
		t.Fatalf("back-end counted %+v; want the 11 accepted events only", got)
	}
}

func (f FrontEnd) backEndDown(t *testing.T) {
	url := f.start(t, "-backends", "http://"+FreeAddress(t)) + service.IngestEventPath
	Post(t, url, JSON, Classic).WantProblem(t, http.StatusBadGateway, "backend-failed", "")
}

func (f FrontEnd) backEndError(t *testing.T) {
	failing := Serve(t, &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
	})})
	url := f.start(t, "-backends", failing) + service.IngestEventPath
	Post(t, url, JSON, Classic).WantProblem(t, http.StatusBadGateway, "backend-failed", "")

	// One good back-end does not hide a failing one.
	backEnd := StartBackEnd(t)
	url = f.start(t, "-backends", backEnd+","+failing) + service.IngestEventPath
	Post(t, url, JSON, Classic).WantProblem(t, http.StatusBadGateway, "backend-failed", "")
}

func (f FrontEnd) backEndUnavailable(t *testing.T) {
	// A back-end whose store is down answers 503: the front-end says so with 503, passing its Retry-After on.
	unavailable := Serve(t, &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "7")
		w.WriteHeader(http.StatusServiceUnavailable)
	})})
	url := f.start(t, "-backends", unavailable) + service.IngestEventPath
	answer := Post(t, url, JSON, Classic)
	answer.WantProblem(t, http.StatusServiceUnavailable, "overloaded", "")
	if got := answer.Header.Get("Retry-After"); got != "7" {
		t.Fatalf("Retry-After %q; want the back-end's 7", got)
	}
}

func (f FrontEnd) slowBackEnd(t *testing.T) {
	backEnd := StartBackEnd(t, "-delay-ms", "600")
	url := f.start(t, "-backends", backEnd, "-timeout-ms", "100") + service.IngestEventPath
	Post(t, url, JSON, Classic).WantProblem(t, http.StatusGatewayTimeout, "backend-timeout", "")
}

func (f FrontEnd) everyBackEnd(t *testing.T) {
	first, second := StartBackEnd(t), StartBackEnd(t)
	url := f.start(t, "-backends", first+", "+second) + service.IngestEventPath
	batch, counts := Batch(10, "\n")
	Post(t, url, NDJSON, batch).Want(t, http.StatusOK, JSON, `{"accepted":10}`)
	for _, backEnd := range []string{first, second} {
		if got := Stats(t, backEnd); got != counts {
			t.Errorf("%s counted %+v; want %+v", backEnd, got, counts)
		}
	}
}

func (f FrontEnd) referenceEndpoints(t *testing.T) {
	base := f.start(t, "-backends", StartBackEnd(t))
	Get(t, base+service.PlaintextPath).Want(t, http.StatusOK, contract.TextMediaType, service.HelloText)
	Get(t, base+service.JSONPath).Want(t, http.StatusOK, JSON, `{"message":"Hello, World!"}`)
	Get(t, base+service.HealthPath).Want(t, http.StatusOK, contract.TextMediaType, service.HealthyText)
	for _, id := range []string{"5", "-1", "2147483647"} {
		Get(t, base+service.ValuesPrefix+id).Want(t, http.StatusOK, contract.TextMediaType, service.ValueText)
	}
	for _, path := range []string{"/api/values/x", "/api/values/2147483648", "/api/values/", "/nowhere"} {
		Get(t, base+path).WantProblem(t, http.StatusNotFound, "not-found", "")
	}
	// Every route with every method: its own answered, any other 405 with Allow; unknown paths stay 404.
	WantMethods(t, base+service.IngestEventPath, service.WriteAllow, Classic)
	for _, path := range []string{service.PlaintextPath, service.JSONPath, service.ValuesPrefix + "5", service.HealthPath} {
		WantMethods(t, base+path, service.ReadAllow, "")
	}
	for _, method := range Methods {
		if a := Do(t, method, base+"/nowhere", "", nil); a.Status != http.StatusNotFound || a.Header.Get("Allow") != "" {
			t.Errorf("%s /nowhere: %d, Allow %q; want 404 without Allow", method, a.Status, a.Header.Get("Allow"))
		}
	}
}
