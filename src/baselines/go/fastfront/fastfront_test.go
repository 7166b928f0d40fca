package fastfront_test

import (
	"context"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"ingest/fastfront"
	"ingest/internal/e2etest"
	"ingest/service"
)

func TestFastHTTPFrontEnd(t *testing.T) {
	e2etest.Run(t, e2etest.FrontEnd{
		Stack: service.FastHTTP,
		Args:  []string{"-client", "pooled"},
		Start: func(t testing.TB, c *service.Config) string { return e2etest.Serve(t, fastfront.New(c).Server()) },
	})
}

// Shutting down while keep-alive clients keep sending must end their connections without fasthttp
// tripping over a connection closed under it, and without waiting for its idle timeout.
func TestShutdownEndsBusyKeepAliveConnections(t *testing.T) {
	srv := fastfront.New(e2etest.Config(t, service.FastHTTP, "-backends", "http://"+e2etest.FreeAddress(t))).Server()
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
