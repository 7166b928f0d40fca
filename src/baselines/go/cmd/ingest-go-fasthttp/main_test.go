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
	backEnd := e2etest.StartBackEnd(t) // the net/http back-end, in-process: the lab's mixed pair until it moves
	fastBackEnd := e2etest.StartProcess(t, "-role", "backend", "-listen", "127.0.0.1:0")
	if !strings.HasPrefix(fastBackEnd.Config, "ingest-go-fasthttp backend (fasthttp): listen="+fastBackEnd.URL) {
		t.Fatalf("configuration line: %q", fastBackEnd.Config)
	}
	a := e2etest.Post(t, fastBackEnd.URL+"/ingest/data", e2etest.JSON, `{"type":"log","source":"a","timestamp":"2026-11-22T10:00:00Z","level":"info","message":"m"}`)
	a.Want(t, http.StatusOK, e2etest.JSON, `{"persisted":1}`)
	if server := a.Header.Get("Server"); server != "go-fasthttp" {
		t.Fatalf("Server: %q", server)
	}

	// The lab passes -role frontend and -client pooled to every Go front-end; both are accepted.
	front := e2etest.StartProcess(t, "-role", "frontend", "-listen", "127.0.0.1:0", "-backends", backEnd, "-client", "pooled")
	if !strings.HasPrefix(front.Config, "ingest-go-fasthttp frontend (fasthttp): listen="+front.URL) {
		t.Fatalf("configuration line: %q", front.Config)
	}
	a = e2etest.Post(t, front.URL+service.IngestEventPath, e2etest.JSON, e2etest.Classic)
	a.Want(t, http.StatusOK, e2etest.JSON, `{"accepted":1}`)
	if server := a.Header.Get("Server"); server != "go-fasthttp" {
		t.Fatalf("Server: %q", server)
	}
	if got := e2etest.Stats(t, backEnd).Job; got != 1 {
		t.Fatalf("jobs persisted: %d", got)
	}

	// The client's idle keep-alive connections must not hold the shutdown up.
	for _, p := range []*e2etest.Process{front, fastBackEnd} {
		p.Signal(t, syscall.SIGTERM)
		code, rest := p.Wait(t, service.ShutdownTimeout/2)
		if code != 0 || !strings.Contains(rest, "Application is shutting down...") {
			t.Fatalf("exit code %d, output after start: %q", code, rest)
		}
	}
}

func TestInFlightRequestsFinishDuringShutdown(t *testing.T) {
	backEnd := e2etest.StartBackEnd(t, "-delay-ms", "1000")
	front := e2etest.StartProcess(t, "-listen", "127.0.0.1:0", "-backends", backEnd)
	answer := e2etest.PostLater(front.URL+service.IngestEventPath, e2etest.JSON, e2etest.Classic)
	time.Sleep(300 * time.Millisecond) // the forward is waiting in the back-end's injected delay
	front.Signal(t, syscall.SIGTERM)
	answer(t).Want(t, http.StatusOK, e2etest.JSON, `{"accepted":1}`)
	if code, _ := front.Wait(t, service.ShutdownTimeout/2); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}

func TestCommandLinesThatCannotWorkExitWith2(t *testing.T) {
	cases := map[string][]string{
		"-role":              {"-role", "proxy"},
		"-drop-one-in":       {"-backends", "http://127.0.0.1:1", "-drop-one-in", "3"},
		"-timeout-ms":        {"-role", "backend", "-timeout-ms", "100"},
		"-client":            {"-backends", "http://127.0.0.1:1", "-client", "per-request"},
		"-backends":          {"-backends", ""},
		"-max-idle-per-host": {"-backends", "http://127.0.0.1:1", "-max-idle-per-host", "100"},
	}
	for want, args := range cases {
		if code, stderr := e2etest.RunCommand(t, args...); code != 2 || !strings.Contains(stderr, want) {
			t.Errorf("%v: exit code %d, stderr %q; want 2 naming %s", args, code, stderr, want)
		}
	}
}
