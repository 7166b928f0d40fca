package service

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"runtime"
)

// ProfilerEnv names the environment variable that turns on Go's profiler endpoints: a loopback host:port
// on which /debug/pprof/ (CPU, heap and allocation profiles, goroutines, the runtime's MemStats) is served
// on a listener of its own, never on the service's port. Unset (the default) serves nothing, so measured
// runs pay nothing for it. benchmarks/profile-front-end.sh go-nethttp|go-fasthttp sets it.
const ProfilerEnv = "INGEST_GO_PPROF"

// StartProfiler serves the profiler endpoints when ProfilerEnv is set, and says where on stdout; it returns
// the address ("" when off) or why it could not listen. Only loopback addresses are accepted: the endpoints
// have no authentication and a CPU profile costs the service while it runs.
func StartProfiler(stdout io.Writer) (string, error) {
	addr := os.Getenv(ProfilerEnv)
	if addr == "" {
		return "", nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("%s=%q: use host:port (%v)", ProfilerEnv, addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return "", fmt.Errorf("%s=%q: use a loopback address (127.0.0.1:port)", ProfilerEnv, addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("%s=%q: %w", ProfilerEnv, addr, err)
	}
	// Allocation sites are sampled every 512 KB by default; that is enough for shares per site, and MemStats
	// (the end of /debug/pprof/allocs?debug=1) counts every allocation exactly.
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	go func() { _ = http.Serve(ln, mux) }() // ends with the process
	fmt.Fprintf(stdout, "profiler: http://%s/debug/pprof/ (%s; GOMAXPROCS=%d)\n", ln.Addr(), ProfilerEnv, runtime.GOMAXPROCS(0))
	return ln.Addr().String(), nil
}
