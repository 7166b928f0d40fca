package fast_test

import (
	"context"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"ingest/fast"
	"ingest/internal/e2etest"
	"ingest/service"
)

// Shutting down while keep-alive clients keep sending must end their connections without fasthttp
// tripping over a connection closed under it, and without waiting for its idle timeout.
func TestShutdownEndsBusyKeepAliveConnections(t *testing.T) {
	srv := fast.NewFrontEnd(e2etest.Config(t, service.FastHTTP, "-backends", "http://"+e2etest.FreeAddress(t))).Server()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	url := "http://" + ln.Addr().String() + service.HealthPath
	stop := make(chan struct{})
	var clients sync.WaitGroup
	for i := 0; i < 8; i++ {
		clients.Add(1)
		go func() {
			defer clients.Done()
			for {
				select {
				case <-stop:
					return
				default:
					_, _ = e2etest.TryDo(http.MethodGet, url, "", nil) // errors are expected once it stops
				}
			}
		}()
	}
	time.Sleep(200 * time.Millisecond)

	started := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), service.ShutdownTimeout)
	defer cancel()
	err = srv.Shutdown(ctx)
	close(stop)
	clients.Wait()
	if err != nil || time.Since(started) > 3*time.Second {
		t.Fatalf("shutdown: %v after %v", err, time.Since(started))
	}
	<-served
}

// The fasthttp pair counts what the net/http pair counts, and its back-end's page lists the last events as text.
func TestStatusPagesShowCounters(t *testing.T) {
	backEnd := e2etest.Serve(t, fast.NewBackEnd(e2etest.Config(t, service.FastHTTP, "-role", "backend")).Server())
	front := e2etest.Serve(t, fast.NewFrontEnd(e2etest.Config(t, service.FastHTTP, "-backends", backEnd)).Server())
	e2etest.Post(t, front+service.IngestEventPath, e2etest.JSON, e2etest.Classic).Want(t, http.StatusOK, e2etest.JSON, `{"accepted":1}`)
	e2etest.Post(t, front+service.IngestEventPath, e2etest.JSON, `{"type":"nope"}`).WantProblem(t, http.StatusBadRequest, "unknown-type", "$.type")
	for url, wants := range map[string][]string{
		front + service.StatusPath: {
			"<title>Ingest front-end — status</title>",
			`<tr data-fact="config.api"><th>api</th><td>fasthttp</td></tr>`,
			`<tr data-fact="requests"><th>requests</th><td>2</td></tr>`,
			`<tr data-fact="errors.400"><th>errors.400</th><td>1</td></tr>`,
			`<tr data-fact="events.job"><th>events.job</th><td>1</td></tr>`,
			`<tr data-fact="forwards.ok"><th>forwards.ok</th><td>1</td></tr>`,
		},
		backEnd + service.RootPath: {
			"<title>Ingest back-end — status</title>",
			`<tr data-fact="requests"><th>requests</th><td>1</td></tr>`,
			`<tr data-fact="persisted.null"><th>persisted.null</th><td>1</td></tr>`,
			`<td>c4bb6d130003 Success: process exited with code 0.</td>`,
		},
	} {
		page := e2etest.Get(t, url)
		page.Want(t, http.StatusOK, "text/html; charset=utf-8", "")
		for _, want := range wants {
			if !strings.Contains(string(page.Body), want) {
				t.Errorf("%s lacks %s:\n%s", url, want, page.Body)
			}
		}
	}
}
