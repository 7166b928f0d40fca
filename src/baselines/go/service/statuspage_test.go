package service

import (
	"strconv"
	"strings"
	"testing"

	"ingest/contract"
)

// benchmarkPage is the model of the .NET micro benchmark (PageRenderBenchmarks.Model): 14 configuration facts,
// 6 counters, 20 last events.
func benchmarkPage() *StatusPage {
	p := &StatusPage{Title: "Ingest back-end", Engine: Engine, HasRecentEvents: true}
	for _, f := range [][2]string{
		{"role", "BackEnd"}, {"api", "net/http"}, {"transport", "Sockets"}, {"serializer", "SystemTextJsonSourceGen"}, {"gc", "Workstation"},
		{"concurrent", "on"}, {"datas", "off"}, {"heaps", "1"}, {"aot", "no"}, {"runtime", ".NET-10.0.12"}, {"pid", "4242"},
		{"sinks", "job:Null,metric:Null,log:Null"}, {"faults", "none"}, {"metrics", "/metrics"},
	} {
		p.Configuration = append(p.Configuration, PageFact{f[0], f[1]})
	}
	p.Counters = []PageFact{{"requests", "123456"}, {"errors.400", "12"}, {"events.job", "15"}, {"events.metric", "0"}, {"events.log", "7"}, {"persisted.null", "22"}}
	for i := 0; i < 20; i++ {
		n := strconv.Itoa(i)
		if i%4 == 0 {
			p.RecentEvents = append(p.RecentEvents, PageEvent{"log", "<script>api</script>", "2026-11-22T10:00:00.0000000Z", "warn: request " + n + " took longer than expected"})
		} else {
			p.RecentEvents = append(p.RecentEvents, PageEvent{"job", "builder-" + n, "2026-11-22T10:00:00.0000000Z", "job-" + n + " Success: process exited with code 0."})
		}
	}
	return p
}

func TestTheStatusPageRendersWithTheLayoutAndEscapes(t *testing.T) {
	html, err := benchmarkPage().Render()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"<!DOCTYPE html>", "<title>Ingest back-end — status</title>", `<span data-fact="engine">html/template</span>`,
		`<tr data-fact="events.log"><th>events.log</th><td>7</td></tr>`, "<td>&lt;script&gt;api&lt;/script&gt;</td>",
	} {
		if !strings.Contains(string(html), want) {
			t.Errorf("the page lacks %s:\n%s", want, html)
		}
	}
}

// BenchmarkRenderStatusPage is the Go side of the .NET Pages benchmarks: the page rendered into a buffer.
func BenchmarkRenderStatusPage(b *testing.B) {
	p := benchmarkPage()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := p.Render(); err != nil {
			b.Fatal(err)
		}
	}
}

const forwardedLog = `[{"type":"log","source":"api-1","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:01Z","level":"warn","message":"request 1 took longer than expected"}]`

func TestRecentBodiesKeepTheLastEventsNewestFirst(t *testing.T) {
	var r RecentBodies
	for i := 0; i < RecentEvents+5; i++ {
		r.Keep([]byte(forwardedLog))
	}
	r.Keep([]byte(`[{"type":"job","source":"b","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:01Z","job_id":"j","status":"s"}]`))
	events := r.Events()
	if len(events) != RecentEvents || events[0].Type != contract.Job || events[1].Type != contract.Log {
		t.Fatalf("kept %d events, newest %v", len(events), events[0].Type)
	}
}

// BenchmarkRecentBodiesKeep is what the back-end's last-events ring costs a request: one body copied into a reused slot.
func BenchmarkRecentBodiesKeep(b *testing.B) {
	var r RecentBodies
	body := []byte(forwardedLog)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r.Keep(body)
	}
}
