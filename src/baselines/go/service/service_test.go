package service

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"ingest/contract"
)

func TestParseAppliesDefaultsPerRole(t *testing.T) {
	c, err := Parse("ingest-go", NetHTTP, []string{"-backends", "http://127.0.0.1:5001/, http://localhost"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.Role != FrontEnd || c.Listen != DefaultFrontEndListen || c.Client != Pooled || c.MaxIdlePerHost != DefaultMaxIdlePerHost ||
		c.Timeout != 5*time.Second || c.MaxBodyBytes != 1<<20 || c.MaxBatchEvents != 1000 || c.MaxConnsPerHost != 0 {
		t.Fatalf("%+v", c)
	}
	if len(c.BackEnds) != 2 || c.BackEnds[0].URL != "http://127.0.0.1:5001/ingest/data" || c.BackEnds[1].Host != "localhost:80" {
		t.Fatalf("%+v", c.BackEnds)
	}
	b, err := Parse("ingest-go", NetHTTP, []string{"-role", "backend", "-drop-one-in", "10", "-delay-ms", "5"}, io.Discard)
	if err != nil || b.Listen != DefaultBackEndListen || b.DropOneIn != 10 || b.Delay != 5*time.Millisecond {
		t.Fatalf("%+v %v", b, err)
	}
	line := b.Describe("127.0.0.1:5001")
	if !strings.HasPrefix(line, "ingest-go backend (net/http): listen=http://127.0.0.1:5001 ") || !strings.Contains(line, "drop-one-in=10") {
		t.Fatal(line)
	}
}

func TestAFrontEndWithoutBackendsForwardsToTheDefaultBackEndAsDotNetDoes(t *testing.T) {
	// The .NET front-end's appsettings.json forwards to http://127.0.0.1:5001, the back-end's default address.
	for _, stack := range []Stack{NetHTTP, FastHTTP} {
		c, err := Parse("test", stack, []string{}, io.Discard)
		if err != nil {
			t.Fatalf("%v: %v", stack, err)
		}
		if len(c.BackEnds) != 1 || c.BackEnds[0].URL != "http://127.0.0.1:5001/ingest/data" || c.BackEnds[0].Host != DefaultBackEndListen {
			t.Fatalf("%v: %+v", stack, c.BackEnds)
		}
	}
	// The default belongs to the front-end: a back-end still starts without it and refuses the flag.
	if b, err := Parse("test", NetHTTP, []string{"-role", "backend"}, io.Discard); err != nil || len(b.BackEnds) != 0 {
		t.Fatalf("%+v %v", b, err)
	}
}

func TestParseRejectsWhatCannotWorkNamingTheFlag(t *testing.T) {
	cases := []struct {
		stack Stack
		args  []string
		flag  string
	}{
		{NetHTTP, []string{"-backends", " "}, "-backends"},
		{NetHTTP, []string{"-backends", "https://x:1"}, "-backends"},
		{NetHTTP, []string{"-backends", "http://x:1/api"}, "-backends"},
		{NetHTTP, []string{"-backends", "http://x:1,"}, "-backends"},
		{NetHTTP, []string{"-role", "proxy"}, "-role"},
		{NetHTTP, []string{"-role", "backend", "-backends", "http://x:1"}, "-backends"},
		{NetHTTP, []string{"-role", "frontend", "-backends", "http://x:1", "-delay-ms", "1"}, "-delay-ms"},
		{NetHTTP, []string{"-backends", "http://x:1", "-client", "static"}, "-client"},
		{NetHTTP, []string{"-backends", "http://x:1", "-client", "per-request", "-max-idle-per-host", "5"}, "-max-idle-per-host"},
		{NetHTTP, []string{"-backends", "http://x:1", "-timeout-ms", "0"}, "-timeout-ms"},
		{NetHTTP, []string{"-backends", "http://x:1", "-max-body-bytes", "0"}, "-max-body-bytes"},
		{NetHTTP, []string{"-backends", "http://x:1", "-max-batch-events", "0"}, "-max-batch-events"},
		{NetHTTP, []string{"-backends", "http://x:1", "-listen", "nowhere"}, "-listen"},
		{NetHTTP, []string{"-role", "backend", "-drop-one-in", "-1"}, "-drop-one-in"},
		{FastHTTP, []string{"-role", "backend", "-backends", "http://x:1"}, "-backends"},
		{FastHTTP, []string{"-role", "backend", "-client", "pooled"}, "-client"},
		{FastHTTP, []string{"-role", "backend", "-max-conns-per-host", "5"}, "-max-conns-per-host"},
		{FastHTTP, []string{"-role", "backend", "-delay-ms", "-1"}, "-delay-ms"},
		{FastHTTP, []string{"-backends", "http://x:1", "-drop-one-in", "3"}, "-drop-one-in"},
		{FastHTTP, []string{"-backends", "http://x:1", "-client", "per-request"}, "-client"},
	}
	for _, c := range cases {
		if _, err := Parse("test", c.stack, c.args, io.Discard); err == nil || !strings.Contains(err.Error(), c.flag) {
			t.Errorf("%v: %v; want an error naming %s", c.args, err, c.flag)
		}
	}
	for _, args := range [][]string{{"-max-idle-per-host", "1"}, {"-drop-one-in", "1"}, {"-delay-ms", "1"}, {"-no-such-flag"}, {"positional"}} {
		if _, err := Parse("test", FastHTTP, append([]string{"-backends", "http://x:1"}, args...), io.Discard); err == nil {
			t.Errorf("fasthttp accepted %v", args)
		}
	}
}

func TestSinkCountsPerTypeAndDropsExactlyOneInN(t *testing.T) {
	s := NewSink(10, 0)
	types := make([]contract.EventType, 15)
	for i := range types {
		types[i] = contract.EventTypes[i%3]
	}
	for request := 0; request < 7; request++ {
		if err := s.Persist(context.Background(), types); err != nil {
			t.Fatal(err)
		}
	}
	if got := s.Stats().Total(); got != 105-10 {
		t.Fatalf("total %d; want 95", got)
	}

	plain := NewSink(0, 0)
	_ = plain.Persist(context.Background(), []contract.EventType{contract.Job, contract.Log, contract.Log})
	if st := plain.Stats(); st != (contract.Stats{Job: 1, Log: 2}) {
		t.Fatalf("%+v", st)
	}
}

func TestSinkPersistsNothingWhenTheCallerLeavesDuringTheDelay(t *testing.T) {
	s := NewSink(0, time.Minute)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if err := s.Persist(ctx, []contract.EventType{contract.Job}); err == nil || s.Stats().Total() != 0 {
		t.Fatalf("err %v, stats %+v", err, s.Stats())
	}
}

func TestIsInt32IsTheIntRouteConstraint(t *testing.T) {
	for _, s := range []string{"5", "0", "-5", "+5", "2147483647", "-2147483648", "007", "00000000002147483647"} {
		if !IsInt32(s) || !IsInt32([]byte(s)) {
			t.Errorf("%q rejected", s)
		}
	}
	for _, s := range []string{"", "-", "x", "5x", "2147483648", "-2147483649", "1.5", "99999999999", " 5"} {
		if IsInt32(s) {
			t.Errorf("%q accepted", s)
		}
	}
}

func TestTheProfilerIsOffUnlessAskedAndServesOnlyOnLoopback(t *testing.T) {
	t.Setenv(ProfilerEnv, "")
	if addr, err := StartProfiler(io.Discard); addr != "" || err != nil {
		t.Fatalf("off by default: %q %v", addr, err)
	}
	for _, bad := range []string{"0.0.0.0:0", "example.org:6060", "6060"} {
		t.Setenv(ProfilerEnv, bad)
		if _, err := StartProfiler(io.Discard); err == nil || !strings.Contains(err.Error(), ProfilerEnv) {
			t.Errorf("%s accepted: %v", bad, err)
		}
	}
	t.Setenv(ProfilerEnv, "127.0.0.1:0")
	var out strings.Builder
	addr, err := StartProfiler(&out)
	if err != nil || addr == "" || !strings.Contains(out.String(), "/debug/pprof/") {
		t.Fatalf("%q %v %q", addr, err, out.String())
	}
	resp, err := http.Get("http://" + addr + "/debug/pprof/allocs?debug=1")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "# TotalAlloc") {
		t.Fatalf("%d %.200s", resp.StatusCode, body)
	}
}
