package main

import (
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"ingest/internal/e2etest"
	"ingest/service"
)

func TestMain(m *testing.M) {
	if os.Getenv(e2etest.AsMainVariable) == "1" {
		main()
	}
	os.Exit(m.Run())
}

func TestProcessesServeTheFlowAndStopGracefullyOnSIGTERM(t *testing.T) {
	backEnd := e2etest.StartProcess(t, "-role", "backend", "-listen", "127.0.0.1:0")
	pooled := e2etest.StartProcess(t, "-role", "frontend", "-listen", "127.0.0.1:0", "-backends", backEnd.URL, "-client", "pooled")
	perRequest := e2etest.StartProcess(t, "-listen", "127.0.0.1:0", "-backends", backEnd.URL, "-client", "per-request")
	if !strings.HasPrefix(pooled.Config, "ingest-go frontend (net/http): listen="+pooled.URL) || !strings.Contains(perRequest.Config, "client=per-request") {
		t.Fatalf("configuration lines: %q, %q", pooled.Config, perRequest.Config)
	}

	for _, front := range []*e2etest.Process{pooled, perRequest} {
		a := e2etest.Post(t, front.URL+service.IngestEventPath, e2etest.JSON, e2etest.Classic)
		a.Want(t, http.StatusOK, e2etest.JSON, `{"accepted":1}`)
		if server := a.Header.Get("Server"); server != "go-net-http" {
			t.Fatalf("Server: %q", server)
		}
	}
	if got := e2etest.Stats(t, backEnd.URL).Job; got != 2 {
		t.Fatalf("jobs persisted: %d", got)
	}

	// The test client keeps idle keep-alive connections to every process: shutdown must not wait on them.
	for _, p := range []*e2etest.Process{pooled, perRequest, backEnd} {
		p.Signal(t, syscall.SIGTERM)
		code, rest := p.Wait(t, service.ShutdownTimeout/2)
		if code != 0 || !strings.Contains(rest, "Application is shutting down...") {
			t.Fatalf("exit code %d, output after start: %q", code, rest)
		}
	}
}

func TestInFlightRequestsFinishDuringShutdown(t *testing.T) {
	backEnd := e2etest.StartProcess(t, "-role", "backend", "-listen", "127.0.0.1:0", "-delay-ms", "1000")
	answer := e2etest.PostLater(backEnd.URL+"/ingest/data", e2etest.JSON, `{"type":"log","source":"a","timestamp":"2026-11-22T10:00:00Z","level":"info","message":"m"}`)
	time.Sleep(300 * time.Millisecond) // the request is waiting in the back-end's injected delay
	backEnd.Signal(t, syscall.SIGINT)
	answer(t).Want(t, http.StatusOK, e2etest.JSON, `{"persisted":1}`)
	if code, _ := backEnd.Wait(t, service.ShutdownTimeout/2); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}

func TestCommandLinesThatCannotWorkExitWith2(t *testing.T) {
	cases := map[string][]string{
		"-backends":    {"-role", "frontend", "-backends", ""},
		"-client":      {"-backends", "http://127.0.0.1:1", "-client", "static"},
		"-drop-one-in": {"-backends", "http://127.0.0.1:1", "-drop-one-in", "3"},
		"not defined":  {"-no-such-flag"},
	}
	for want, args := range cases {
		if code, stderr := e2etest.RunCommand(t, args...); code != 2 || !strings.Contains(stderr, want) {
			t.Errorf("%v: exit code %d, stderr %q; want 2 naming %s", args, code, stderr, want)
		}
	}
	if code, stderr := e2etest.RunCommand(t, "-h"); code != 0 || !strings.Contains(stderr, "-max-idle-per-host") {
		t.Errorf("-h: exit code %d, stderr %q", code, stderr)
	}
}

func TestAnAddressInUseExitsWith1(t *testing.T) {
	busy := e2etest.StartProcess(t, "-role", "backend", "-listen", "127.0.0.1:0")
	code, stderr := e2etest.RunCommand(t, "-role", "backend", "-listen", strings.TrimPrefix(busy.URL, "http://"))
	if code != 1 || !strings.Contains(stderr, "-listen") {
		t.Fatalf("exit code %d, stderr %q", code, stderr)
	}
}
