package fastfront

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"ingest"
	"ingest/server"
	"ingest/testkit"
)

func startFront(t *testing.T, cfg server.Config) string {
	t.Helper()
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(cfg)
	go func() { _ = srv.Serve(listener) }()
	t.Cleanup(func() { _ = srv.Shutdown() })
	return "http://" + listener.Addr().String()
}

func TestTheFastHTTPFrontEndSpeaksTheContract(t *testing.T) {
	backHandler, counter := server.NewBackEnd(testkit.Config(nil, ""))
	back := httptest.NewServer(backHandler)
	defer back.Close()
	front := startFront(t, testkit.Config([]string{back.URL}, "pooled"))

	const classic = `{"data": "{'job_id':'c4bb6d130003','container_id':'ab7b85dcac72','status':'Success: process exited with code 0.'}"}`
	for _, s := range []struct {
		body, contentType string
		status            int
		want              string
	}{
		{classic, "application/json", 200, `{"accepted":1}`},
		{"[" + testkit.Batch(15, ",") + "]", "application/json", 200, `{"accepted":15}`},
		{testkit.Batch(15, "\n"), "application/x-ndjson", 200, `{"accepted":15}`},
		{classic, "text/plain", 415, "unsupported-media-type"},
		{`{"type":"job",`, "application/json", 400, "malformed-json"},
		{`{"type":"metric","source":"s","timestamp":"2026-11-22T10:00:00Z","name":"n","value":"7"}`, "application/json", 400, `"field":"$.value"`},
		{"[" + testkit.Batch(21, ",") + "]", "application/json", 413, "payload-too-large"},
		{`{"type":"job","source":"s","timestamp":"2026-11-22T10:00:00Z","job_id":"j","status":"` + strings.Repeat("x", 4100) + `"}`, "application/json", 413, "payload-too-large"},
	} {
		status, body := post(t, front, s.body, s.contentType)
		if status != s.status || !strings.Contains(body, s.want) {
			t.Errorf("%.50s: %d %s", s.body, status, body)
		}
	}
	if stats := counter.Snapshot(); stats.Total != 31 {
		t.Fatalf("stats %+v", stats)
	}

	for path, want := range map[string]string{"/plaintext": "Hello, World!", "/api/values/5": "value", "/healthz": "Healthy", "/json": `{"message":"Hello, World!"}`} {
		response, err := http.Get(front + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(response.Body)
		response.Body.Close()
		if response.StatusCode != 200 || string(body) != want || response.Header.Get("Server") != ServerName || response.Header.Get("Date") == "" {
			t.Errorf("%s: %d %s", path, response.StatusCode, body)
		}
	}
	response, _ := http.Get(front + "/nothing")
	response.Body.Close()
	if response.StatusCode != 404 {
		t.Errorf("/nothing: %d", response.StatusCode)
	}
}

func TestTheFastHTTPFrontEndMapsBackEndFailures(t *testing.T) {
	listener, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := "http://" + listener.Addr().String()
	listener.Close()
	front := startFront(t, testkit.Config([]string{dead}, "pooled"))
	if status, body := post(t, front, `{"data": "{'job_id':'j','status':'s'}"}`, "application/json"); status != 502 || !strings.Contains(body, "backend-failed") {
		t.Errorf("back-end down: %d %s", status, body)
	}

	slow := testkit.Config(nil, "")
	slow.Delay = 800 * time.Millisecond
	backHandler, counter := server.NewBackEnd(slow)
	back := httptest.NewServer(backHandler)
	defer back.Close()
	cfg := testkit.Config([]string{back.URL}, "pooled")
	cfg.Timeout = 200 * time.Millisecond
	front = startFront(t, cfg)
	status, body := post(t, front, `{"data": "{'job_id':'j','status':'s'}"}`, "application/json")
	var p ingest.Problem
	_ = json.Unmarshal([]byte(body), &p)
	if status != 504 || !p.Is(ingest.BackEndTimeout) {
		t.Errorf("slow back-end: %d %s", status, body)
	}
	_ = counter
}

func post(t *testing.T, base, body, contentType string) (int, string) {
	t.Helper()
	response, err := http.Post(base+server.PathEvent, contentType, strings.NewReader(body))
	if err != nil {
		t.Fatalf("POST: %v", err)
	}
	defer response.Body.Close()
	b, _ := io.ReadAll(response.Body)
	return response.StatusCode, string(b)
}
