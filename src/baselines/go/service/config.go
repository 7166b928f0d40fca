// Package service holds what the Go services share beyond the wire contract and independent of the HTTP
// stack: command-line configuration, the back-end's counting sink with its fault switches, and the
// process lifecycle (listen, announce, serve, shut down gracefully).
package service

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"runtime"
	"strings"
	"time"

	"ingest/contract"
)

// Stack is the HTTP library a binary is built on; it decides which flags exist.
type Stack uint8

const (
	// NetHTTP is the standard library: front-end and back-end, both client modes.
	NetHTTP Stack = iota
	// FastHTTP is valyala/fasthttp: front-end (pooled client only) and back-end.
	FastHTTP
)

func (s Stack) String() string {
	if s == FastHTTP {
		return "fasthttp"
	}
	return "net/http"
}

// Role is what a process serves.
type Role string

// The roles of the flow.
const (
	FrontEnd Role = "frontend"
	BackEnd  Role = "backend"
)

// ClientMode is how a front-end holds its connections to the back-ends.
type ClientMode string

const (
	// Pooled is one shared client with a connection pool: the like-for-like peer of a static .NET HttpClient.
	Pooled ClientMode = "pooled"
	// PerRequest is a new transport per forward with keep-alive off, one TCP connection per forward:
	// the 2016 original's fix.
	PerRequest ClientMode = "per-request"
)

// Defaults, the same as the .NET services' where they have the setting.
const (
	DefaultFrontEndListen = "127.0.0.1:5000"
	DefaultBackEndListen  = "127.0.0.1:5001"
	// DefaultBackEnds is where a front-end forwards when -backends is not given: the default back-end's
	// address, as the .NET front-end's Forwarding:BackEnds in its appsettings.json. A front-end that only serves
	// the reference endpoints (/plaintext, /json, /api/values) then starts with no flag, as the .NET one does.
	DefaultBackEnds     = "http://" + DefaultBackEndListen
	DefaultTimeoutMS    = 5000
	DefaultMaxBodyBytes = 1 << 20
	// At least the most connections the lab drives (300), so the pooled client never closes a connection for want
	// of an idle slot, as .NET's pool (unbounded by default) never does. 100 made Go churn connections at c=300.
	DefaultMaxIdlePerHost  = 1024
	maxTimeoutMS           = 600_000
	maxDelayMS             = 600_000
	maxConfiguredBodyBytes = 1 << 30
)

// BackEndTarget is one back-end a front-end forwards to.
type BackEndTarget struct {
	// URL is the forward address, base URL plus /ingest/data.
	URL string
	// Host is host:port, for fasthttp's HostClient and for messages.
	Host string
}

// Config is a validated configuration.
type Config struct {
	Program string
	Stack   Stack
	Role    Role
	Listen  string

	// Front-end.
	BackEnds        []BackEndTarget
	Client          ClientMode
	MaxIdlePerHost  int
	MaxConnsPerHost int // 0: unlimited
	Timeout         time.Duration
	MaxBatchEvents  int

	// Both.
	MaxBodyBytes int

	// Back-end faults: never set them in a measured run.
	DropOneIn int
	Delay     time.Duration
}

// ErrUsage is returned for a command line the flag package could not parse; it has printed why.
var ErrUsage = errors.New("invalid command line")

// Parse reads the command line of program (built on stack) into a validated Config. Usage and flag
// errors go to stderr; a returned error names the flag to fix.
func Parse(program string, stack Stack, args []string, stderr io.Writer) (*Config, error) {
	fs := flag.NewFlagSet(program, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		role, listen, backends, client string
		maxIdle, maxConns, timeoutMS   int
		maxBody, maxBatch, drop, delay int
	)
	fs.StringVar(&role, "role", string(FrontEnd), "what to serve: frontend or backend")
	fs.StringVar(&listen, "listen", "", "address to listen on, host:port (port 0: any free port, printed at start); defaults to "+DefaultFrontEndListen+" for a front-end, "+DefaultBackEndListen+" for a back-end")
	fs.StringVar(&backends, "backends", DefaultBackEnds, "front-end: comma-separated back-end base URLs (http://host:port); every event goes to each of them")
	clientHelp := "front-end: pooled (one shared client) or per-request (a new transport per forward, keep-alive off)"
	if stack == FastHTTP {
		clientHelp = "front-end: only pooled (a fasthttp.HostClient per back-end)"
	}
	fs.StringVar(&client, "client", string(Pooled), clientHelp)
	if stack == NetHTTP {
		fs.IntVar(&maxIdle, "max-idle-per-host", DefaultMaxIdlePerHost, "front-end, pooled: idle connections kept per back-end (http.Transport.MaxIdleConnsPerHost; Go's default is 2)")
	}
	fs.IntVar(&maxConns, "max-conns-per-host", 0, "front-end, pooled: most connections per back-end, 0 for no limit (like .NET's MaxConnectionsPerServer)")
	fs.IntVar(&timeoutMS, "timeout-ms", DefaultTimeoutMS, "front-end: how long a forward may take before the caller gets 504, in ms")
	fs.IntVar(&maxBody, "max-body-bytes", DefaultMaxBodyBytes, "largest request body accepted; larger ones get 413")
	fs.IntVar(&maxBatch, "max-batch-events", contract.DefaultMaxBatchEvents, "front-end: most events in one request (JSON array or NDJSON); more get 413")
	fs.IntVar(&drop, "drop-one-in", 0, "back-end fault: acknowledge every event but silently drop one in this many (0: never)")
	fs.IntVar(&delay, "delay-ms", 0, "back-end fault: wait this long before persisting each request, in ms")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, ErrUsage // the flag package has printed what was wrong, and the usage
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q: every setting is a -flag", fs.Arg(0))
	}

	c := &Config{
		Program: program, Stack: stack, Role: Role(role), Listen: listen, Client: ClientMode(client),
		MaxIdlePerHost: maxIdle, MaxConnsPerHost: maxConns, Timeout: time.Duration(timeoutMS) * time.Millisecond,
		MaxBatchEvents: maxBatch, MaxBodyBytes: maxBody, DropOneIn: drop, Delay: time.Duration(delay) * time.Millisecond,
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if err := c.validate(set, backends, timeoutMS, delay); err != nil {
		return nil, err
	}
	return c, nil
}

var (
	frontEndFlags = []string{"backends", "client", "max-idle-per-host", "max-conns-per-host", "timeout-ms", "max-batch-events"}
	backEndFlags  = []string{"drop-one-in", "delay-ms"}
)

func (c *Config) validate(set map[string]bool, backends string, timeoutMS, delayMS int) error {
	switch {
	case c.Role != FrontEnd && c.Role != BackEnd:
		return fmt.Errorf("-role %q: use frontend or backend", c.Role)
	case c.MaxBodyBytes < 1 || c.MaxBodyBytes > maxConfiguredBodyBytes:
		return fmt.Errorf("-max-body-bytes %d: use 1 to %d", c.MaxBodyBytes, maxConfiguredBodyBytes)
	}
	if c.Listen == "" {
		c.Listen = DefaultFrontEndListen
		if c.Role == BackEnd {
			c.Listen = DefaultBackEndListen
		}
	}
	if _, _, err := net.SplitHostPort(c.Listen); err != nil {
		return fmt.Errorf("-listen %q: use host:port (%v)", c.Listen, err)
	}

	if c.Role == BackEnd {
		for _, name := range frontEndFlags {
			if set[name] {
				return fmt.Errorf("-%s applies only to a front-end (-role frontend)", name)
			}
		}
		switch {
		case c.DropOneIn < 0:
			return fmt.Errorf("-drop-one-in %d: use 0 (never) or more", c.DropOneIn)
		case delayMS < 0 || delayMS > maxDelayMS:
			return fmt.Errorf("-delay-ms %d: use 0 to %d", delayMS, maxDelayMS)
		}
		return nil
	}

	for _, name := range backEndFlags {
		if set[name] {
			return fmt.Errorf("-%s applies only to a back-end (-role backend)", name)
		}
	}
	switch {
	case c.Client != Pooled && c.Client != PerRequest:
		return fmt.Errorf("-client %q: use pooled or per-request", c.Client)
	case c.Stack == FastHTTP && c.Client != Pooled:
		return fmt.Errorf("-client %s: the fasthttp front-end forwards only with a pooled client", c.Client)
	case c.Client == PerRequest && (set["max-idle-per-host"] || set["max-conns-per-host"]):
		return errors.New("-max-idle-per-host and -max-conns-per-host apply only to -client pooled: per-request opens one connection per forward")
	case c.Stack == NetHTTP && c.MaxIdlePerHost < 1:
		return fmt.Errorf("-max-idle-per-host %d: use 1 or more", c.MaxIdlePerHost)
	case c.MaxConnsPerHost < 0:
		return fmt.Errorf("-max-conns-per-host %d: use 0 (no limit) or more", c.MaxConnsPerHost)
	case timeoutMS < 1 || timeoutMS > maxTimeoutMS:
		return fmt.Errorf("-timeout-ms %d: use 1 to %d", timeoutMS, maxTimeoutMS)
	case c.MaxBatchEvents < 1:
		return fmt.Errorf("-max-batch-events %d: use 1 or more", c.MaxBatchEvents)
	}
	if strings.TrimSpace(backends) == "" {
		return errors.New("-backends is empty: give the back-end base URLs, e.g. -backends " + DefaultBackEnds + ", or leave the flag out for that default")
	}
	for _, raw := range strings.Split(backends, ",") {
		target, err := parseBackEnd(strings.TrimSpace(raw))
		if err != nil {
			return fmt.Errorf("-backends %q: %v", raw, err)
		}
		c.BackEnds = append(c.BackEnds, target)
	}
	return nil
}

// parseBackEnd reads a back-end base URL: http, a host, an optional port (80), no path beyond "/".
func parseBackEnd(raw string) (BackEndTarget, error) {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return BackEndTarget{}, err
	case u.Scheme != "http":
		return BackEndTarget{}, errors.New("use an http:// base URL (back-ends are spoken to in cleartext HTTP/1.1)")
	case u.Hostname() == "":
		return BackEndTarget{}, errors.New("the URL has no host")
	case (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil:
		return BackEndTarget{}, errors.New("give only the base URL, http://host:port: the front-end posts to " + contract.DataPath)
	}
	host := u.Host
	if u.Port() == "" {
		host = net.JoinHostPort(u.Hostname(), "80")
	}
	return BackEndTarget{URL: "http://" + host + contract.DataPath, Host: host}, nil
}

// Describe is the one line a process prints at start: everything that shapes its behaviour, with the
// address it really listens on.
func (c *Config) Describe(addr string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s (%s): listen=http://%s", c.Program, c.Role, c.Stack, addr)
	if c.Role == FrontEnd {
		urls := make([]string, len(c.BackEnds))
		for i, t := range c.BackEnds {
			urls[i] = "http://" + t.Host
		}
		fmt.Fprintf(&b, " backends=%s client=%s", strings.Join(urls, ","), c.Client)
		if c.Client == Pooled {
			if c.Stack == NetHTTP {
				fmt.Fprintf(&b, " max-idle-per-host=%d", c.MaxIdlePerHost)
			}
			fmt.Fprintf(&b, " max-conns-per-host=%d", c.MaxConnsPerHost)
		}
		fmt.Fprintf(&b, " timeout-ms=%d max-batch-events=%d", c.Timeout.Milliseconds(), c.MaxBatchEvents)
	}
	fmt.Fprintf(&b, " max-body-bytes=%d", c.MaxBodyBytes)
	if c.Role == BackEnd {
		fmt.Fprintf(&b, " sink=memory-counts idempotency-keys=%d idempotency-window-s=%d drop-one-in=%d delay-ms=%d",
			IdempotencyCapacity, int(IdempotencyWindow.Seconds()), c.DropOneIn, c.Delay.Milliseconds())
	}
	gogc := os.Getenv("GOGC")
	if gogc == "" {
		gogc = "100"
	}
	fmt.Fprintf(&b, " go=%s GOMAXPROCS=%d GOGC=%s", runtime.Version(), runtime.GOMAXPROCS(0), gogc)
	return b.String()
}
