// Package e2etest is the end-to-end conformance suite every baseline binary passes (Conformance, run by its
// conformance_test.go against the binaries INGEST_CONFORMANCE names): real processes on 127.0.0.1:0, the contract
// checked from the outside over real sockets. It also has the helpers the packages' own tests use to serve in-process
// and to run their command as a process.
package e2etest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"ingest/contract"
	"ingest/service"
	"ingest/stdhttp"
)

var client = &http.Client{
	Timeout:   15 * time.Second,
	Transport: &http.Transport{Proxy: nil, DisableCompression: true, MaxIdleConnsPerHost: 16},
}

// Answer is one HTTP answer, read whole.
type Answer struct {
	Status int
	Header http.Header
	Body   []byte
	// Close is true when the server announced it closes the connection (Connection: close).
	Close bool
}

// Do sends one request and reads the whole answer.
func Do(t testing.TB, method, url, contentType string, body []byte) Answer {
	t.Helper()
	a, err := TryDo(method, url, contentType, body)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TryDo is Do for goroutines other than the test's own, which must not call t.Fatal.
func TryDo(method, url, contentType string, body []byte) (Answer, error) {
	return TryDoWith(method, url, contentType, nil, body)
}

// TryDoWith is TryDo with more request headers.
func TryDoWith(method, url, contentType string, header http.Header, body []byte) (Answer, error) {
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		return Answer{}, err
	}
	for name, values := range header {
		req.Header[name] = values
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := client.Do(req)
	if err != nil {
		return Answer{}, fmt.Errorf("%s %s: %w", method, url, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return Answer{}, fmt.Errorf("%s %s: reading the answer: %w", method, url, err)
	}
	return Answer{resp.StatusCode, resp.Header, data, resp.Close}, nil
}

// Post sends a POST.
func Post(t testing.TB, url, contentType, body string) Answer {
	t.Helper()
	return Do(t, http.MethodPost, url, contentType, []byte(body))
}

// PostLater sends a POST from another goroutine; the returned function waits for the answer.
func PostLater(url, contentType, body string) func(testing.TB) Answer {
	type result struct {
		answer Answer
		err    error
	}
	done := make(chan result, 1)
	go func() {
		a, err := TryDo(http.MethodPost, url, contentType, []byte(body))
		done <- result{a, err}
	}()
	return func(t testing.TB) Answer {
		t.Helper()
		r := <-done
		if r.err != nil {
			t.Fatal(r.err)
		}
		return r.answer
	}
}

// Get sends a GET.
func Get(t testing.TB, url string) Answer {
	t.Helper()
	return Do(t, http.MethodGet, url, "", nil)
}

// Methods are what WantMethods asks every route with: the ones the contract names, and others.
var Methods = []string{"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "FOO"}

// WantMethods asks url, a route answering the methods of allow (service.ReadAllow or service.WriteAllow), with
// every one of Methods. The methods it answers give 200 (a POST sends postBody) and HEAD gives GET's headers
// without a body; any other is a 405 with that Allow and a problem body (none for HEAD).
func WantMethods(t testing.TB, url, allow, postBody string) {
	t.Helper()
	for _, method := range Methods {
		var body []byte
		if method == http.MethodPost {
			body = []byte(postBody)
		}
		a := Do(t, method, url, JSON, body)
		switch {
		case !service.Answers(allow, method):
			if a.Status != http.StatusMethodNotAllowed || a.Header.Get("Allow") != allow {
				t.Fatalf("%s %s: %d, Allow %q; want 405, Allow %q", method, url, a.Status, a.Header.Get("Allow"), allow)
			}
			if method == http.MethodHead {
				if len(a.Body) != 0 {
					t.Fatalf("HEAD %s: a body %q", url, a.Body)
				}
			} else {
				a.WantProblem(t, http.StatusMethodNotAllowed, "method-not-allowed", "")
			}
		case a.Status != http.StatusOK:
			t.Fatalf("%s %s: %d %s; want 200", method, url, a.Status, a.Body)
		case method == http.MethodHead:
			get := Get(t, url)
			if len(a.Body) != 0 || a.Header.Get("Content-Type") != get.Header.Get("Content-Type") ||
				a.Header.Get("Content-Length") != get.Header.Get("Content-Length") {
				t.Fatalf("HEAD %s: %q %q %q; GET had %q %q", url, a.Header.Get("Content-Type"), a.Header.Get("Content-Length"), a.Body,
					get.Header.Get("Content-Type"), get.Header.Get("Content-Length"))
			}
		}
	}
}

// Want checks the status, the Content-Type and, when body is not empty, the exact body.
func (a Answer) Want(t testing.TB, status int, contentType, body string) {
	t.Helper()
	if a.Status != status || a.Header.Get("Content-Type") != contentType || (body != "" && string(a.Body) != body) {
		t.Fatalf("got %d %q %s; want %d %q %s", a.Status, a.Header.Get("Content-Type"), a.Body, status, contentType, body)
	}
	if a.Header.Get("Server") == "" {
		t.Fatal("no Server header")
	}
	if _, err := http.ParseTime(a.Header.Get("Date")); err != nil {
		t.Fatalf("Date header %q: %v", a.Header.Get("Date"), err)
	}
}

// WantProblem checks a problem+json answer: status, type URN, title, detail and the field path
// (absent when field is empty).
func (a Answer) WantProblem(t testing.TB, status int, slug, field string) {
	t.Helper()
	var p struct {
		Type   string  `json:"type"`
		Title  string  `json:"title"`
		Status int     `json:"status"`
		Detail string  `json:"detail"`
		Field  *string `json:"field"`
	}
	if err := json.Unmarshal(a.Body, &p); err != nil {
		t.Fatalf("%d %s: not a problem body: %v", a.Status, a.Body, err)
	}
	gotField := ""
	if p.Field != nil {
		gotField = *p.Field
	}
	if a.Status != status || p.Status != status || p.Type != "urn:ingest:problem:"+slug || p.Title == "" || p.Detail == "" ||
		gotField != field || (p.Field != nil && field == "") {
		t.Fatalf("got %d %s; want %d %s field %q", a.Status, a.Body, status, slug, field)
	}
	if ct := a.Header.Get("Content-Type"); ct != contract.ProblemMediaType {
		t.Fatalf("Content-Type %q", ct)
	}
}

// Config parses a command line as the binaries do, listening on any free loopback port.
func Config(t testing.TB, stack service.Stack, args ...string) *service.Config {
	t.Helper()
	c, err := service.Parse("test", stack, append([]string{"-listen", "127.0.0.1:0"}, args...), io.Discard)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return c
}

// Serve runs srv on a fresh loopback port until the test ends (then shuts it down gracefully) and
// returns its base URL.
func Serve(t testing.TB, srv service.Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ln)
	}()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), service.ShutdownTimeout)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		<-done
	})
	return "http://" + ln.Addr().String()
}

// StartBackEnd starts a net/http back-end with the given flags and returns its base URL.
func StartBackEnd(t testing.TB, args ...string) string {
	t.Helper()
	return Serve(t, stdhttp.NewServer(stdhttp.NewBackEnd(Config(t, service.NetHTTP, append([]string{"-role", "backend"}, args...)...))))
}

// Stats reads a back-end's GET /ingest/stats.
func Stats(t testing.TB, backEnd string) contract.Stats {
	t.Helper()
	a := Get(t, backEnd+service.IngestStatsPath)
	a.Want(t, http.StatusOK, contract.JSONMediaType, "")
	var s struct {
		Total  int64 `json:"total"`
		ByType struct {
			Job    int64 `json:"job"`
			Metric int64 `json:"metric"`
			Log    int64 `json:"log"`
		} `json:"by_type"`
	}
	if err := json.Unmarshal(a.Body, &s); err != nil {
		t.Fatal(err)
	}
	stats := contract.Stats{Job: s.ByType.Job, Metric: s.ByType.Metric, Log: s.ByType.Log}
	if s.Total != stats.Total() {
		t.Fatalf("stats total %d is not the sum of %s", s.Total, a.Body)
	}
	return stats
}

// FreeAddress is a loopback address nothing listens on.
func FreeAddress(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// The payloads.
const (
	Classic = `{"data": "{'job_id':'c4bb6d130003','container_id':'ab7b85dcac72','status':'Success: process exited with code 0.'}"}`
	JSON    = contract.JSONMediaType
	NDJSON  = contract.NDJSONMediaType
	ts      = `"timestamp":"2026-11-22T10:00:00Z"`
)

// Event is the i-th event of a mixed batch: job, metric, log and the classic payload in turn.
func Event(i int) (string, contract.EventType) {
	switch i % 4 {
	case 0:
		return fmt.Sprintf(`{"type":"job","source":"s-%d",%s,"job_id":"j-%d","status":"done"}`, i, ts, i), contract.Job
	case 1:
		return fmt.Sprintf(`{"type":"metric","source":"s-%d",%s,"name":"cpu","value":0.%d,"unit":"ratio"}`, i, ts, i), contract.Metric
	case 2:
		return fmt.Sprintf(`{"type":"log","source":"s-%d",%s,"level":"WARN","message":"m-%d"}`, i, ts, i), contract.Log
	}
	return Classic, contract.Job
}

// Batch is n mixed events joined by sep, and what they count as.
func Batch(n int, sep string) (string, contract.Stats) {
	items := make([]string, n)
	var s contract.Stats
	for i := range items {
		var typ contract.EventType
		items[i], typ = Event(i)
		add(&s, typ, 1)
	}
	return strings.Join(items, sep), s
}

func add(s *contract.Stats, t contract.EventType, n int64) {
	switch t {
	case contract.Job:
		s.Job += n
	case contract.Metric:
		s.Metric += n
	default:
		s.Log += n
	}
}

func plus(a, b contract.Stats) contract.Stats {
	return contract.Stats{Job: a.Job + b.Job, Metric: a.Metric + b.Metric, Log: a.Log + b.Log}
}

// RawRequest writes a request as is on a new connection and reads the answer: for framing no client
// library would send.
func RawRequest(t testing.TB, baseURL, request string) Answer {
	t.Helper()
	conn := writeRaw(t, baseURL, request)
	defer conn.Close()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return Answer{resp.StatusCode, resp.Header, body, resp.Close}
}

// writeRaw opens a connection to baseURL, with a deadline of 10 s for everything on it, and writes request as is.
func writeRaw(t testing.TB, baseURL, request string) *net.TCPConn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(baseURL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(conn, request); err != nil {
		conn.Close()
		t.Fatal(err)
	}
	return conn.(*net.TCPConn)
}
