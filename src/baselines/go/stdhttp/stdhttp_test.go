package stdhttp_test

import (
	"net/http"
	"strings"
	"testing"

	"ingest/internal/e2etest"
	"ingest/service"
	"ingest/stdhttp"
)

func startFrontEnd(t testing.TB, c *service.Config) string {
	front := stdhttp.NewFrontEnd(c)
	t.Cleanup(front.Close)
	return e2etest.Serve(t, stdhttp.NewServer(front))
}

func TestStatusPagesShowCountersAndEscapeWhatClientsSent(t *testing.T) {
	backEnd := e2etest.StartBackEnd(t)
	front := startFrontEnd(t, e2etest.Config(t, service.NetHTTP, "-backends", backEnd))
	hostile := `{"type":"log","source":"<script>alert('source')</script>","timestamp":"2026-11-22T10:00:00Z","level":"warn","message":"<img src=x onerror=alert(1)> & <b>bold</b>"}`
	e2etest.Post(t, front+service.IngestEventPath, e2etest.JSON, hostile).Want(t, http.StatusOK, e2etest.JSON, `{"accepted":1}`)
	e2etest.Post(t, front+service.IngestEventPath, e2etest.JSON, `{"type":"nope"}`).WantProblem(t, http.StatusBadRequest, "unknown-type", "$.type")

	page := e2etest.Get(t, front+service.StatusPath)
	if page.Status != http.StatusOK || page.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("front-end page: %d %s", page.Status, page.Header.Get("Content-Type"))
	}
	for _, want := range []string{
		"<title>Ingest front-end — status</title>",
		`<span data-fact="engine">html/template</span>`,
		`<tr data-fact="config.role"><th>role</th><td>FrontEnd</td></tr>`,
		`<tr data-fact="requests"><th>requests</th><td>2</td></tr>`,
		`<tr data-fact="errors.400"><th>errors.400</th><td>1</td></tr>`,
		`<tr data-fact="events.log"><th>events.log</th><td>1</td></tr>`,
		`<tr data-fact="forwards.ok"><th>forwards.ok</th><td>1</td></tr>`,
	} {
		if !strings.Contains(string(page.Body), want) {
			t.Errorf("front-end page lacks %s:\n%s", want, page.Body)
		}
	}

	back := e2etest.Get(t, backEnd+service.RootPath)
	for _, want := range []string{
		"<title>Ingest back-end — status</title>",
		`<tr data-fact="events.log"><th>events.log</th><td>1</td></tr>`,
		`<tr data-fact="persisted.null"><th>persisted.null</th><td>1</td></tr>`,
		`<td>&lt;script&gt;alert(&#39;source&#39;)&lt;/script&gt;</td>`,
		`<td>warn: &lt;img src=x onerror=alert(1)&gt; &amp; &lt;b&gt;bold&lt;/b&gt;</td>`,
	} {
		if !strings.Contains(string(back.Body), want) {
			t.Errorf("back-end page lacks %s:\n%s", want, back.Body)
		}
	}
	if strings.Contains(string(back.Body), "<script>") || strings.Contains(string(back.Body), "<img") {
		t.Errorf("back-end page carries markup a client sent:\n%s", back.Body)
	}
	e2etest.WantMethods(t, backEnd+service.StatusPath, service.ReadAllow, "")
	e2etest.WantMethods(t, front+service.RootPath, service.ReadAllow, "")
}
