package stdhttp

import (
	"net/http"
	"testing"

	"ingest/contract"
)

const forwardedLog = `[{"type":"log","source":"api-1","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:01Z","level":"warn","message":"request 1 took longer than expected"}]`

func TestRecentBodiesKeepTheLastEventsNewestFirst(t *testing.T) {
	var r recentBodies
	for i := 0; i < recentEvents+5; i++ {
		r.keep([]byte(forwardedLog))
	}
	r.keep([]byte(`[{"type":"job","source":"b","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:01Z","job_id":"j","status":"s"}]`))
	events := r.events()
	if len(events) != recentEvents || events[0].Type != contract.Job || events[1].Type != contract.Log {
		t.Fatalf("kept %d events, newest %v", len(events), events[0].Type)
	}
}

// BenchmarkRecentBodiesKeep is what the back-end's last-events ring costs a request: one body copied into a reused slot.
func BenchmarkRecentBodiesKeep(b *testing.B) {
	var r recentBodies
	body := []byte(forwardedLog)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r.keep(body)
	}
}

// BenchmarkCountAnswer is what counting an answer costs a request: the status recorder and the counters.
func BenchmarkCountAnswer(b *testing.B) {
	c := newCounters()
	var w nullWriter
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		rec := &recorder{ResponseWriter: &w}
		answer(rec) // through the interface, as ServeHTTP hands it on: the recorder escapes as it does there
		c.answered(rec.code())
	}
}

//go:noinline
func answer(w http.ResponseWriter) { w.WriteHeader(http.StatusOK) }

type nullWriter struct{ h http.Header }

func (w *nullWriter) Header() http.Header         { return w.h }
func (w *nullWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *nullWriter) WriteHeader(int)             {}
