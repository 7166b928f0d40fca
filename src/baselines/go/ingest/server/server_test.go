package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"ingest"
	"ingest/server"
	"ingest/testkit"
)

const classic = testkit.Classic

// Post sends a body to a front-end over a real loopback socket and returns status, content type and body.
func Post(t *testing.T, base, body, contentType string) (int, string, string) {
	t.Helper()
	request, _ := http.NewRequest(http.MethodPost, base+server.PathEvent, strings.NewReader(body))
	if contentType != "" {
		request.Header.Set("Content-Type", contentType)
	}
	response, err := http.DefaultClient.Do(request)
	if err != nil {
		t.Fatalf("POST %s: %v", body, err)
	}
	defer response.Body.Close()
	b, _ := io.ReadAll(response.Body)
	return response.StatusCode, response.Header.Get("Content-Type"), string(b)
}

func startFlow(t *testing.T, client string, backEndCfg server.Config) (frontEnd string, counter *ingest.Counter) {
	t.Helper()
	backHandler, counter := server.NewBackEnd(backEndCfg)
	back := httptest.NewServer(backHandler)
	t.Cleanup(back.Close)
	front := httptest.NewServer(server.NewFrontEnd(testkit.Config([]string{back.URL}, client)))
	t.Cleanup(front.Close)
	return front.URL, counter
}

func TestTheFrontEndForwardsEveryPayloadToTheBackEnd(t *testing.T) {
	for _, client := range []string{"pooled", "per-request"} {
		front, counter := startFlow(t, client, testkit.Config(nil, ""))
		sends := []struct {
			body, contentType string
			accepted          int
		}{
			{classic, "application/json", 1},
			{`{"type":"log","source":"a","timestamp":"2026-11-22T10:00:00Z","level":"info","message":"m"}`, "application/json", 1},
			{"[" + testkit.Batch(15, ",") + "]", "application/json", 15},
			{testkit.Batch(15, "\n"), "application/x-ndjson", 15},
		}
		for _, s := range sends {
			status, _, body := Post(t, front, s.body, s.contentType)
			if status != 200 || body != fmt.Sprintf(`{"accepted":%d}`, s.accepted) {
				t.Fatalf("%s: %d %s", client, status, body)
			}
		}
		if stats := counter.Snapshot(); stats.Total != 32 || stats.ByType.Job != 11 || stats.ByType.Metric != 10 || stats.ByType.Log != 11 {
			t.Fatalf("%s: stats %+v", client, stats)
		}
	}
}

func TestTheFrontEndRejectsBadInputAndPersistsNothing(t *testing.T) {
	front, counter := startFlow(t, "pooled", testkit.Config(nil, ""))
	cases := []struct {
		body, contentType string
		status            int
		problem, field    string
	}{
		{`{"type":"job",`, "application/json", 400, "malformed-json", ""},
		{"", "application/json", 400, "empty-body", ""},
		{classic, "text/plain", 415, "unsupported-media-type", ""},
		{classic, "", 415, "unsupported-media-type", ""},
		{`{"type":"job","source":"s","timestamp":"2026-11-22T10:00:00Z","job_id":"j","status":"` + strings.Repeat("x", 4100) + `"}`, "application/json", 413, "payload-too-large", ""},
		{"[" + testkit.Batch(21, ",") + "]", "application/json", 413, "payload-too-large", ""},
		{`{"data": "{'status': 'ok'}"}`, "application/json", 400, "missing-field", "$.data.job_id"},
		{`{"type":"span","source":"s","timestamp":"2026-11-22T10:00:00Z"}`, "application/json", 400, "unknown-type", "$.type"},
		{`{"type":"metric","source":"s","timestamp":"2026-11-22T10:00:00Z","name":"n","value":"7"}`, "application/json", 400, "invalid-field", "$.value"},
	}
	for _, c := range cases {
		status, contentType, body := Post(t, front, c.body, c.contentType)
		var p ingest.Problem
		if err := json.Unmarshal([]byte(body), &p); err != nil || status != c.status || contentType != ingest.ProblemMediaType ||
			p.Type != "urn:ingest:problem:"+c.problem || (c.field != "" && p.Field != c.field) {
			t.Errorf("%.60s: %d %s %s", c.body, status, contentType, body)
		}
	}
	if total := counter.Snapshot().Total; total != 0 {
		t.Fatalf("%d events persisted from rejected requests", total)
	}
}

func TestABackEndThatIsDownGives502AndASlowOneGives504(t *testing.T) {
	listener, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := "http://" + listener.Addr().String()
	listener.Close()
	for _, client := range []string{"pooled", "per-request"} {
		front := httptest.NewServer(server.NewFrontEnd(testkit.Config([]string{dead}, client)))
		status, _, body := Post(t, front.URL, classic, "application/json")
		front.Close()
		if status != 502 || !strings.Contains(body, "backend-failed") {
			t.Errorf("%s, back-end down: %d %s", client, status, body)
		}

		slow := testkit.Config(nil, "")
		slow.Delay = 800 * time.Millisecond
		backHandler, counter := server.NewBackEnd(slow)
		back := httptest.NewServer(backHandler)
		cfg := testkit.Config([]string{back.URL}, client)
		cfg.Timeout = 200 * time.Millisecond
		front = httptest.NewServer(server.NewFrontEnd(cfg))
		status, _, body = Post(t, front.URL, classic, "application/json")
		time.Sleep(time.Second)
		front.Close()
		back.Close()
		if status != 504 || !strings.Contains(body, "backend-timeout") {
			t.Errorf("%s, slow back-end: %d %s", client, status, body)
		}
		if counter.Snapshot().Total != 0 {
			t.Errorf("%s: the aborted forward was persisted", client)
		}
	}
}

func TestFiveThousandConcurrentClassicPayloadsAreAllPersisted(t *testing.T) {
	for _, client := range []string{"pooled", "per-request"} {
		front, counter := startFlow(t, client, testkit.Config(nil, ""))
		transport := &http.Transport{MaxIdleConnsPerHost: 64, MaxConnsPerHost: 64}
		httpClient := &http.Client{Transport: transport}
		var wg sync.WaitGroup
		var failures sync.Map
		next := make(chan int)
		for w := 0; w < 64; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range next {
					response, err := httpClient.Post(front+server.PathEvent, "application/json", bytes.NewReader([]byte(classic)))
					if err != nil {
						failures.Store(err.Error(), true)
						continue
					}
					_, _ = io.Copy(io.Discard, response.Body)
					response.Body.Close()
					if response.StatusCode != 200 {
						failures.Store(response.Status, true)
					}
				}
			}()
		}
		for i := 0; i < 5000; i++ {
			next <- i
		}
		close(next)
		wg.Wait()
		transport.CloseIdleConnections()
		failures.Range(func(k, _ any) bool { t.Errorf("%s: %v", client, k); return true })
		if total := counter.Snapshot().Total; total != 5000 {
			t.Fatalf("%s: %d persisted of 5000", client, total)
		}
	}
}

func TestTheReferenceEndpointsAndTheBackEndsOwn(t *testing.T) {
	front, _ := startFlow(t, "pooled", testkit.Config(nil, ""))
	for path, want := range map[string]string{"/plaintext": "Hello, World!", "/api/values/5": "value", "/healthz": "Healthy", "/json": `{"message":"Hello, World!"}`} {
		response, err := http.Get(front + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(response.Body)
		response.Body.Close()
		if response.StatusCode != 200 || string(body) != want || response.Header.Get("Server") != server.ServerName || response.Header.Get("Date") == "" {
			t.Errorf("%s: %d %s %v", path, response.StatusCode, body, response.Header)
		}
	}
	for _, path := range []string{"/api/values/abc", "/nothing", "/ingest/data"} {
		response, _ := http.Get(front + path)
		response.Body.Close()
		if response.StatusCode != 404 || response.Header.Get("Content-Type") != ingest.ProblemMediaType {
			t.Errorf("%s: %d", path, response.StatusCode)
		}
	}
}

func TestADroppingBackEndAcknowledgesButLosesOneInN(t *testing.T) {
	dropping := testkit.Config(nil, "")
	dropping.DropOneIn = 10
	front, counter := startFlow(t, "pooled", dropping)
	for i := 0; i < 30; i++ {
		if status, _, _ := Post(t, front, classic, "application/json"); status != 200 {
			t.Fatalf("status %d", status)
		}
	}
	if total := counter.Snapshot().Total; total != 27 {
		t.Fatalf("%d persisted", total)
	}
}
