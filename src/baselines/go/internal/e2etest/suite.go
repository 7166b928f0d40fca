package e2etest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"ingest/contract"
	"ingest/service"
)

// Implementation is one implementation of the flow under test, as binaries with the command line of ingest-go:
// -role frontend|backend, -listen host:port (port 0: a free one, printed), -backends, -timeout-ms, -max-body-bytes,
// -max-batch-events, -drop-one-in, -delay-ms; the first line on stdout is the configuration naming
// listen=http://host:port, the second "Application started."; SIGTERM stops it gracefully, exit code 0; a command line
// that cannot work exits 2, an address it cannot listen on 1.
type Implementation struct {
	Name string
	// FrontEnd and BackEnd are the binaries started with -role frontend and -role backend (often the same file).
	FrontEnd, BackEnd string
	// FrontEndArgs are added to every front-end's command line, e.g. -client per-request.
	FrontEndArgs []string
}

// ParseImplementation reads NAME=FRONTEND[,BACKEND][ FLAG...]: the binary for both roles (or the front-end's and the
// back-end's), then flags for every front-end, separated by spaces (paths with spaces are not supported).
func ParseImplementation(spec string) (Implementation, error) {
	fields := strings.Fields(spec)
	if len(fields) == 0 {
		return Implementation{}, fmt.Errorf("empty implementation")
	}
	name, paths, ok := strings.Cut(fields[0], "=")
	if !ok || name == "" || paths == "" {
		return Implementation{}, fmt.Errorf("%q: use NAME=PATH[,BACKEND_PATH][ FRONT-END FLAGS]", spec)
	}
	front, back, two := strings.Cut(paths, ",")
	if !two {
		back = front
	}
	return Implementation{Name: name, FrontEnd: front, BackEnd: back, FrontEndArgs: fields[1:]}, nil
}

// StartFrontEnd starts the implementation's front-end on a free loopback port with args, until the test ends.
func (impl Implementation) StartFrontEnd(t testing.TB, args ...string) *Process {
	t.Helper()
	all := append([]string{"-role", "frontend", "-listen", "127.0.0.1:0"}, impl.FrontEndArgs...)
	return StartBinary(t, impl.FrontEnd, nil, append(all, args...)...)
}

// StartBackEnd starts the implementation's back-end on a free loopback port with args, until the test ends.
func (impl Implementation) StartBackEnd(t testing.TB, args ...string) *Process {
	t.Helper()
	return StartBinary(t, impl.BackEnd, nil, append([]string{"-role", "backend", "-listen", "127.0.0.1:0"}, args...)...)
}

func (impl Implementation) front(t testing.TB, args ...string) string {
	t.Helper()
	return impl.StartFrontEnd(t, args...).URL
}

func (impl Implementation) back(t testing.TB, args ...string) string {
	t.Helper()
	return impl.StartBackEnd(t, args...).URL
}

// Conformance is the whole suite against one implementation, every service a real process on 127.0.0.1: its front-end
// behind its own back-end, the back-end's own cases, the processes' life cycle and command line. Back-ends that
// misbehave beyond the command line's faults (answering 500 or 503, recording what they were sent) are small net/http
// servers of the test's own.
func Conformance(t *testing.T, impl Implementation) {
	// Front-end, behind the implementation's own back-end.
	t.Run("FrontEnd/AcceptsEveryShapeAndTheBackEndCountsExactly", impl.acceptsEveryShape)
	t.Run("FrontEnd/RejectsBadInputWithTheContractsProblemAndPersistsNothing", impl.rejectsBadInput)
	t.Run("FrontEnd/BodiesAndBatchesOverTheLimitsAre413", impl.limits)
	t.Run("FrontEnd/ForwardsTheNormalisedBodyWithAFreshIdempotencyKey", impl.forwardsWithIdempotencyKey)
	t.Run("FrontEnd/BackEndDownIs502", impl.backEndDown)
	t.Run("FrontEnd/BackEndAnsweringAnErrorIs502", impl.backEndError)
	t.Run("FrontEnd/BackEndUnavailableIs503WithItsRetryAfter", impl.backEndUnavailable)
	t.Run("FrontEnd/SlowBackEndIs504", impl.slowBackEnd)
	t.Run("FrontEnd/EveryBackEndGetsEveryEvent", impl.everyBackEnd)
	t.Run("FrontEnd/ReferenceEndpointsAndMethodsAnswerAsTheContractSays", impl.referenceEndpoints)
	t.Run("FrontEnd/StatusPage", impl.frontEndStatusPage)
	t.Run("FrontEnd/AHalfCloseAfterACompleteRequestIsAnsweredAndPersistedOnce", impl.halfCloseAfterACompleteRequest)
	t.Run("FrontEnd/ARequestAHalfCloseCutsShortIsNeverAcknowledged", impl.halfCloseCutsARequestShort)
	t.Run("BothRoles/AFieldNameThatIsNotATokenIs400", impl.nonTokenFieldNamesAre400)
	t.Run("BothRoles/MethodsAreCaseSensitive", impl.methodsAreCaseSensitive)
	// Back-end.
	t.Run("BackEnd/RechecksCountsAndAnswersMethods", impl.backEndRechecks)
	t.Run("BackEnd/BodyOverItsLimitIs413", impl.backEndLimit)
	t.Run("BackEnd/PersistsARepeatedIdempotencyKeyOnce", impl.idempotency)
	t.Run("BackEnd/ARepeatDuringTheFirstAttemptWaitsForIt", impl.idempotencyInFlight)
	t.Run("BackEnd/DropFaultLosesOneEventInNThoughAllAreAcknowledged", impl.dropFault)
	t.Run("BackEnd/StatusPageListsTheLastEventsAsText", impl.backEndStatusPage)
	// The processes.
	t.Run("Process/SIGTERMStopsBothRolesGracefully", impl.stopsGracefully)
	t.Run("Process/InFlightRequestsFinishDuringShutdown", impl.inFlightFinish)
	t.Run("Process/CommandLinesThatCannotWorkExitWith2", impl.badCommandLines)
	t.Run("Process/AnAddressInUseExitsWith1", impl.addressInUse)
}

func (impl Implementation) acceptsEveryShape(t *testing.T) {
	backEnd := impl.back(t)
	url := impl.front(t, "-backends", backEnd) + service.IngestEventPath
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

func (impl Implementation) rejectsBadInput(t *testing.T) {
	backEnd := impl.back(t)
	url := impl.front(t, "-backends", backEnd) + service.IngestEventPath
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

func (impl Implementation) limits(t *testing.T) {
	backEnd := impl.back(t)
	base := impl.front(t, "-backends", backEnd, "-max-body-bytes", "1024", "-max-batch-events", "10")
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

// forwarded is one forward as a recording back-end saw it.
type forwarded struct {
	contentType, key string
	body             []byte
}

// recordingBackEnd is a back-end of the test's own that keeps what it is sent and acknowledges it.
func recordingBackEnd(t testing.TB) (string, func() []forwarded) {
	var mu sync.Mutex
	var seen []forwarded
	url := Serve(t, &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body []byte
		if r.Body != nil {
			var b strings.Builder
			buf := make([]byte, 4096)
			for {
				n, err := r.Body.Read(buf)
				b.Write(buf[:n])
				if err != nil {
					break
				}
			}
			body = []byte(b.String())
		}
		mu.Lock()
		seen = append(seen, forwarded{r.Header.Get("Content-Type"), r.Header.Get(contract.IdempotencyKeyHeader), body})
		mu.Unlock()
		w.Header().Set("Content-Type", contract.JSONMediaType)
		_, _ = w.Write([]byte(`{"persisted":1}`))
	})})
	return url, func() []forwarded {
		mu.Lock()
		defer mu.Unlock()
		return append([]forwarded(nil), seen...)
	}
}

var idempotencyKeyPattern = regexp.MustCompile(`^[0-9a-f]{32}$`)

func (impl Implementation) forwardsWithIdempotencyKey(t *testing.T) {
	first, firstSeen := recordingBackEnd(t)
	second, secondSeen := recordingBackEnd(t)
	url := impl.front(t, "-backends", first+","+second) + service.IngestEventPath
	for i := 0; i < 3; i++ {
		Post(t, url, JSON, Classic).Want(t, http.StatusOK, JSON, `{"accepted":1}`)
	}
	a, b := firstSeen(), secondSeen()
	if len(a) != 3 || len(b) != 3 {
		t.Fatalf("the back-ends saw %d and %d forwards; want 3 each", len(a), len(b))
	}
	keys := map[string]bool{}
	for _, f := range a {
		if !idempotencyKeyPattern.MatchString(f.key) {
			t.Fatalf("Idempotency-Key %q; want 32 lowercase hexadecimal digits", f.key)
		}
		keys[f.key] = true
	}
	if len(keys) != 3 {
		t.Fatalf("three forwards carried %d distinct keys: %v", len(keys), keys)
	}
	for _, f := range b {
		if !keys[f.key] {
			t.Fatalf("the second back-end got key %q, which the first did not: one key per forward, for every back-end", f.key)
		}
	}
	// The normalised event of the classic payload (docs/contract.md, Normalisation).
	f := a[0]
	if format, ok := contract.ContentTypeFormat(f.contentType); !ok || format != contract.JSON {
		t.Fatalf("forward Content-Type %q", f.contentType)
	}
	var events []map[string]any
	if err := json.Unmarshal(f.body, &events); err != nil {
		var one map[string]any
		if json.Unmarshal(f.body, &one) != nil {
			t.Fatalf("forward body is neither an array nor an object of events: %s", f.body)
		}
		events = []map[string]any{one}
	}
	if len(events) != 1 {
		t.Fatalf("forward body %s; want one event", f.body)
	}
	e := events[0]
	for member, value := range map[string]string{"type": "job", "source": "classic", "job_id": "c4bb6d130003", "container_id": "ab7b85dcac72", "status": "Success: process exited with code 0."} {
		if e[member] != value {
			t.Errorf("forwarded %s = %v; want %q (body %s)", member, e[member], value, f.body)
		}
	}
	stamp, _ := e["timestamp"].(string)
	if _, err := time.Parse(time.RFC3339Nano, stamp); err != nil || !strings.HasSuffix(stamp, "Z") || e["received_at"] != stamp {
		t.Errorf("forwarded timestamp %v, received_at %v; want the same UTC instant (RFC 3339, Z)", e["timestamp"], e["received_at"])
	}
	if len(e) != 7 {
		t.Errorf("forwarded %d members; want exactly type, source, timestamp, received_at, job_id, container_id, status: %s", len(e), f.body)
	}
}

func (impl Implementation) backEndDown(t *testing.T) {
	url := impl.front(t, "-backends", "http://"+FreeAddress(t)) + service.IngestEventPath
	Post(t, url, JSON, Classic).WantProblem(t, http.StatusBadGateway, "backend-failed", "")
}

func (impl Implementation) backEndError(t *testing.T) {
	failing := Serve(t, &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
	})})
	url := impl.front(t, "-backends", failing) + service.IngestEventPath
	Post(t, url, JSON, Classic).WantProblem(t, http.StatusBadGateway, "backend-failed", "")

	// One good back-end does not hide a failing one.
	backEnd := impl.back(t)
	url = impl.front(t, "-backends", backEnd+","+failing) + service.IngestEventPath
	Post(t, url, JSON, Classic).WantProblem(t, http.StatusBadGateway, "backend-failed", "")
}

func (impl Implementation) backEndUnavailable(t *testing.T) {
	// A back-end whose store is down answers 503: the front-end says so with 503, passing its Retry-After on.
	unavailable := Serve(t, &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "7")
		w.WriteHeader(http.StatusServiceUnavailable)
	})})
	url := impl.front(t, "-backends", unavailable) + service.IngestEventPath
	answer := Post(t, url, JSON, Classic)
	answer.WantProblem(t, http.StatusServiceUnavailable, "overloaded", "")
	if got := answer.Header.Get("Retry-After"); got != "7" {
		t.Fatalf("Retry-After %q; want the back-end's 7", got)
	}
}

func (impl Implementation) slowBackEnd(t *testing.T) {
	backEnd := impl.back(t, "-delay-ms", "600")
	url := impl.front(t, "-backends", backEnd, "-timeout-ms", "100") + service.IngestEventPath
	Post(t, url, JSON, Classic).WantProblem(t, http.StatusGatewayTimeout, "backend-timeout", "")
}

func (impl Implementation) everyBackEnd(t *testing.T) {
	first, second := impl.back(t), impl.back(t)
	url := impl.front(t, "-backends", first+", "+second) + service.IngestEventPath
	batch, counts := Batch(10, "\n")
	Post(t, url, NDJSON, batch).Want(t, http.StatusOK, JSON, `{"accepted":10}`)
	for _, backEnd := range []string{first, second} {
		if got := Stats(t, backEnd); got != counts {
			t.Errorf("%s counted %+v; want %+v", backEnd, got, counts)
		}
	}
}

func (impl Implementation) referenceEndpoints(t *testing.T) {
	base := impl.front(t, "-backends", impl.back(t))
	Get(t, base+service.PlaintextPath).Want(t, http.StatusOK, contract.TextMediaType, service.HelloText)
	Get(t, base+service.JSONPath).Want(t, http.StatusOK, JSON, `{"message":"Hello, World!"}`)
	Get(t, base+service.HealthPath).Want(t, http.StatusOK, contract.TextMediaType, service.HealthyText)
	for _, id := range []string{"5", "-1", "2147483647"} {
		Get(t, base+service.ValuesPrefix+id).Want(t, http.StatusOK, contract.TextMediaType, service.ValueText)
	}
	for _, path := range []string{"/api/values/x", "/api/values/2147483648", "/api/values/", "/nowhere", contract.DataPath, service.IngestStatsPath} {
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

const htmlType = "text/html; charset=utf-8"

func (impl Implementation) frontEndStatusPage(t *testing.T) {
	base := impl.front(t, "-backends", impl.back(t))
	Post(t, base+service.IngestEventPath, JSON, Classic).Want(t, http.StatusOK, JSON, `{"accepted":1}`)
	for _, path := range []string{service.RootPath, service.StatusPath} {
		Get(t, base+path).Want(t, http.StatusOK, htmlType, "")
		WantMethods(t, base+path, service.ReadAllow, "")
	}
}

// A forwarded log event, as front-ends write them.
const forwardedLog = `{"type":"log","source":"a","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:01Z","level":"info","message":"m"}`

func (impl Implementation) backEndRechecks(t *testing.T) {
	backEnd := impl.back(t)
	url := backEnd + contract.DataPath
	metric := `{"type":"metric","source":"a","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:01Z","name":"n","value":1}`
	Post(t, url, JSON, forwardedLog).Want(t, http.StatusOK, JSON, `{"persisted":1}`)
	Post(t, url, JSON, "["+forwardedLog+","+metric+","+metric+"]").Want(t, http.StatusOK, JSON, `{"persisted":3}`)
	Post(t, url, NDJSON, forwardedLog).WantProblem(t, http.StatusUnsupportedMediaType, "unsupported-media-type", "")
	Post(t, url, "", forwardedLog).WantProblem(t, http.StatusUnsupportedMediaType, "unsupported-media-type", "")
	Post(t, url, JSON, "["+forwardedLog+`,{"type":"job","source":"a","timestamp":"2026-11-22T10:00:00Z","status":"s"}]`).
		WantProblem(t, http.StatusBadRequest, "missing-field", "$[1].job_id")
	Post(t, url, JSON, `{"type":"log","source":"a","timestamp":"2026-11-22T10:00:00","level":"info","message":"m"}`).
		WantProblem(t, http.StatusBadRequest, "invalid-field", "$.timestamp")
	Post(t, url, JSON, `{"type":"bogus","source":"a","timestamp":"2026-11-22T10:00:00Z"}`).
		WantProblem(t, http.StatusBadRequest, "unknown-type", "$.type")
	Post(t, url, JSON, "[]").WantProblem(t, http.StatusBadRequest, "empty-body", "")
	Post(t, url, JSON, "[1").WantProblem(t, http.StatusBadRequest, "malformed-json", "$[0]")
	// Over the default 1 MiB, declared: refused on Content-Length alone (only the headers are sent), and closed.
	tooLarge := RawRequest(t, backEnd, "POST /ingest/data HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1048577\r\n\r\n")
	tooLarge.WantProblem(t, http.StatusRequestEntityTooLarge, "payload-too-large", "")
	if !tooLarge.Close {
		t.Fatal("413 without Connection: close")
	}
	if a := Get(t, backEnd+service.IngestStatsPath); string(a.Body) != `{"total":4,"by_type":{"job":0,"metric":2,"log":2}}` {
		t.Fatalf("stats %s", a.Body)
	}
	Get(t, backEnd+service.HealthPath).Want(t, http.StatusOK, contract.TextMediaType, service.HealthyText)
	for _, path := range []string{service.PlaintextPath, service.JSONPath, service.ValuesPrefix + "5", service.IngestEventPath, "/nowhere"} {
		Get(t, backEnd+path).WantProblem(t, http.StatusNotFound, "not-found", "")
	}
	WantMethods(t, url, service.WriteAllow, "["+forwardedLog+"]")
	for _, path := range []string{service.IngestStatsPath, service.HealthPath, service.RootPath, service.StatusPath} {
		WantMethods(t, backEnd+path, service.ReadAllow, "")
	}
}

func (impl Implementation) backEndLimit(t *testing.T) {
	backEnd := impl.back(t, "-max-body-bytes", "1024")
	body := "[" + strings.Repeat(forwardedLog+",", 10) + forwardedLog + "]"
	Post(t, backEnd+contract.DataPath, JSON, body).WantProblem(t, http.StatusRequestEntityTooLarge, "payload-too-large", "")
	Post(t, backEnd+contract.DataPath, JSON, forwardedLog).Want(t, http.StatusOK, JSON, `{"persisted":1}`)
	if got := Stats(t, backEnd).Total(); got != 1 {
		t.Fatalf("persisted %d; want 1", got)
	}
}

// postWithKey posts a forward body to a back-end with an Idempotency-Key (none when key is empty).
func postWithKey(url, key, body string) (Answer, error) {
	var header http.Header
	if key != "" {
		header = http.Header{contract.IdempotencyKeyHeader: {key}}
	}
	return TryDoWith(http.MethodPost, url, JSON, header, []byte(body))
}

func (impl Implementation) idempotency(t *testing.T) {
	backEnd := impl.back(t)
	url := backEnd + contract.DataPath
	batch := "[" + forwardedLog + "," + forwardedLog + "]"
	send := func(key string) {
		t.Helper()
		a, err := postWithKey(url, key, batch)
		if err != nil {
			t.Fatal(err)
		}
		a.Want(t, http.StatusOK, JSON, `{"persisted":2}`) // a repeat is acknowledged as the first was
	}
	const key = "0123456789abcdef0123456789abcdef"
	persisted := int64(0)
	for _, c := range []struct {
		key, why string
		counts   bool
	}{
		{key, "a new key", true},
		{key, "the same key again: persisted once", false},
		{"fedcba9876543210fedcba9876543210", "another key", true},
		{strings.ToUpper(key), "the first key in upper case: keys compare as text (ordinal), so another key", true},
		{"retry-7", "any text is a key", true},
		{"retry-7", "the same text key again", false},
		{"", "no key: persisted every time", true},
		{"", "no key again", true},
		{strings.Repeat("k", 129), "a key longer than 128 characters is ignored: persisted every time", true},
		{strings.Repeat("k", 129), "the same over-long key again: still ignored", true},
	} {
		send(c.key)
		if c.counts {
			persisted += 2
		}
		if got := Stats(t, backEnd).Log; got != persisted {
			t.Fatalf("after %s (key %.40q): persisted %d events; want %d", c.why, c.key, got, persisted)
		}
	}
	// A request the back-end refused leaves its key unused.
	if a, err := postWithKey(url, "refused-first", `[{"type":"log"}]`); err != nil || a.Status != http.StatusBadRequest {
		t.Fatalf("%v %d %s", err, a.Status, a.Body)
	}
	send("refused-first")
	if got := Stats(t, backEnd).Log; got != persisted+2 {
		t.Fatalf("persisted %d events; want %d: a key whose forward was refused is not spent", got, persisted+2)
	}
}

func (impl Implementation) idempotencyInFlight(t *testing.T) {
	backEnd := impl.back(t, "-delay-ms", "400")
	url := backEnd + contract.DataPath
	const key = "aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb"
	answers := make(chan error, 2)
	for i := 0; i < 2; i++ {
		go func() {
			a, err := postWithKey(url, key, forwardedLog)
			if err == nil && (a.Status != http.StatusOK || string(a.Body) != `{"persisted":1}`) {
				err = fmt.Errorf("%d %s", a.Status, a.Body)
			}
			answers <- err
		}()
		time.Sleep(100 * time.Millisecond) // the second arrives while the first waits in the delay
	}
	for i := 0; i < 2; i++ {
		if err := <-answers; err != nil {
			t.Fatal(err)
		}
	}
	if got := Stats(t, backEnd).Total(); got != 1 {
		t.Fatalf("persisted %d; want the forward once", got)
	}
}

func (impl Implementation) dropFault(t *testing.T) {
	backEnd := impl.back(t, "-drop-one-in", "10")
	front := impl.front(t, "-backends", backEnd)
	batch, _ := Batch(100, ",")
	Post(t, front+service.IngestEventPath, JSON, "["+batch+"]").Want(t, http.StatusOK, JSON, `{"accepted":100}`)
	if got := Stats(t, backEnd).Total(); got != 90 {
		t.Fatalf("persisted %d; want 90", got)
	}
}

func (impl Implementation) backEndStatusPage(t *testing.T) {
	backEnd := impl.back(t)
	hostile := `{"type":"log","source":"<script>alert('source')</script>","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:00Z","level":"warn","message":"<img src=x onerror=alert(1)> & <b>bold</b>"}`
	Post(t, backEnd+contract.DataPath, JSON, hostile).Want(t, http.StatusOK, JSON, `{"persisted":1}`)
	page := Get(t, backEnd+service.StatusPath)
	page.Want(t, http.StatusOK, htmlType, "")
	body := string(page.Body)
	if !strings.Contains(body, "&lt;script&gt;") || !strings.Contains(body, "&lt;img src=x onerror=alert(1)&gt;") {
		t.Errorf("the page does not list the last event as text:\n%s", body)
	}
	if strings.Contains(body, "<script>alert") || strings.Contains(body, "<img") {
		t.Errorf("the page carries markup a client sent:\n%s", body)
	}
}

func (impl Implementation) stopsGracefully(t *testing.T) {
	backEnd := impl.StartBackEnd(t)
	front := impl.StartFrontEnd(t, "-backends", backEnd.URL)
	for _, p := range []*Process{front, backEnd} {
		if !strings.Contains(p.Config, "listen="+p.URL) || strings.HasSuffix(p.URL, ":0") {
			t.Fatalf("configuration line %q names no real port", p.Config)
		}
	}
	Post(t, front.URL+service.IngestEventPath, JSON, Classic).Want(t, http.StatusOK, JSON, `{"accepted":1}`)
	if got := Stats(t, backEnd.URL).Job; got != 1 {
		t.Fatalf("jobs persisted: %d", got)
	}
	// The test client keeps idle keep-alive connections to both: shutdown must not wait on them.
	for _, p := range []*Process{front, backEnd} {
		p.Signal(t, syscall.SIGTERM)
		if code, rest := p.Wait(t, service.ShutdownTimeout/2); code != 0 {
			t.Fatalf("exit code %d, output after start: %q", code, rest)
		}
	}
}

func (impl Implementation) inFlightFinish(t *testing.T) {
	backEnd := impl.StartBackEnd(t, "-delay-ms", "1000")
	front := impl.StartFrontEnd(t, "-backends", backEnd.URL)
	toFront := PostLater(front.URL+service.IngestEventPath, JSON, Classic)
	toBack := PostLater(backEnd.URL+contract.DataPath, JSON, forwardedLog)
	time.Sleep(300 * time.Millisecond) // both are waiting in the back-end's injected delay
	front.Signal(t, syscall.SIGTERM)
	backEnd.Signal(t, syscall.SIGTERM)
	toFront(t).Want(t, http.StatusOK, JSON, `{"accepted":1}`)
	toBack(t).Want(t, http.StatusOK, JSON, `{"persisted":1}`)
	for _, p := range []*Process{front, backEnd} {
		if code, _ := p.Wait(t, service.ShutdownTimeout/2); code != 0 {
			t.Fatalf("exit code %d", code)
		}
	}
}

func (impl Implementation) badCommandLines(t *testing.T) {
	listen := []string{"-listen", "127.0.0.1:0"}
	cases := []struct {
		binary string
		args   []string
		name   string // the flag the error must name
	}{
		{impl.FrontEnd, []string{"-role", "proxy"}, "-role"},
		{impl.FrontEnd, []string{"-role", "frontend", "-no-such-flag"}, "no-such-flag"},
		{impl.FrontEnd, []string{"-role", "frontend", "-backends", ""}, "-backends"},
		{impl.FrontEnd, []string{"-role", "frontend", "-backends", "ftp://127.0.0.1:1"}, "-backends"},
		{impl.FrontEnd, []string{"-role", "frontend", "-timeout-ms", "0"}, "-timeout-ms"},
		{impl.FrontEnd, []string{"-role", "frontend", "-max-batch-events", "0"}, "-max-batch-events"},
		{impl.FrontEnd, []string{"-role", "frontend", "-drop-one-in", "3"}, "-drop-one-in"},
		{impl.FrontEnd, []string{"-role", "frontend", "-delay-ms", "3"}, "-delay-ms"},
		{impl.FrontEnd, []string{"-role", "frontend", "-listen", "nowhere"}, "-listen"},
		{impl.BackEnd, []string{"-role", "backend", "-backends", "http://127.0.0.1:1"}, "-backends"},
		{impl.BackEnd, []string{"-role", "backend", "-timeout-ms", "100"}, "-timeout-ms"},
		{impl.BackEnd, []string{"-role", "backend", "-drop-one-in", "-1"}, "-drop-one-in"},
		{impl.BackEnd, []string{"-role", "backend", "-max-body-bytes", "0"}, "-max-body-bytes"},
	}
	for _, c := range cases {
		args := c.args
		if c.name != "-listen" {
			args = append(append([]string{}, c.args...), listen...)
		}
		if code, stderr := RunBinary(t, c.binary, nil, args...); code != 2 || !strings.Contains(stderr, strings.TrimPrefix(c.name, "-")) {
			t.Errorf("%v: exit code %d, stderr %q; want 2 naming %s", args, code, stderr, c.name)
		}
	}
}

func (impl Implementation) addressInUse(t *testing.T) {
	busy := impl.StartBackEnd(t)
	code, stderr := RunBinary(t, impl.BackEnd, nil, "-role", "backend", "-listen", strings.TrimPrefix(busy.URL, "http://"))
	if code != 1 {
		t.Fatalf("exit code %d, stderr %q; want 1", code, stderr)
	}
}
