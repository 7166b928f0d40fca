// Package fastfront is the Go front-end on valyala/fasthttp, the strongest Go peer: the same contract
// (package contract does all of it) served by fasthttp's server and forwarded with a pooled
// fasthttp.HostClient per back-end.
package fastfront

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"

	"ingest/contract"
	"ingest/service"
)

// ServerName is the Server header of every answer (fasthttp sets Date itself, refreshed every second).
const ServerName = "go-fasthttp"

var (
	valuesPrefix = []byte(service.ValuesPrefix)
	helloText    = []byte(service.HelloText)
	healthyText  = []byte(service.HealthyText)
	valueText    = []byte(service.ValueText)
)

// FrontEnd serves POST /ingest/event and the reference endpoints on fasthttp.
type FrontEnd struct {
	reader   contract.RequestReader
	maxBody  int
	timeout  time.Duration
	backEnds []backEnd
}

type backEnd struct {
	client *fasthttp.HostClient
	url    string
	host   string
}

// New builds the front-end a validated configuration describes.
func New(c *service.Config) *FrontEnd {
	f := &FrontEnd{
		reader:  contract.RequestReader{MaxBatchEvents: c.MaxBatchEvents},
		maxBody: c.MaxBodyBytes,
		timeout: c.Timeout,
	}
	maxConns := c.MaxConnsPerHost
	if maxConns == 0 {
		maxConns = math.MaxInt32 // no limit, as the net/http and .NET clients have none by default
	}
	for _, t := range c.BackEnds {
		f.backEnds = append(f.backEnds, backEnd{
			url:  t.URL,
			host: t.Host,
			client: &fasthttp.HostClient{
				Addr:                     t.Host,
				NoDefaultUserAgentHeader: true,
				MaxConns:                 maxConns,
				// With a connection limit, wait for a free connection rather than fail at once; a wait
				// that outlasts the timeout is a 504 like any other late answer.
				MaxConnWaitTimeout:  c.Timeout,
				MaxIdleConnDuration: 90 * time.Second, // net/http's IdleConnTimeout here
				// The forward's timeout: a back-end that has not answered ReadTimeout after the request was
				// written is a 504 (ErrTimeout), and its connection is closed, not left to hang.
				ReadTimeout:  c.Timeout,
				WriteTimeout: c.Timeout,
			},
		})
	}
	return f
}

// Server is the fasthttp server for this front-end, ready for service.Run.
func (f *FrontEnd) Server() *Server {
	s := &Server{}
	s.Server = &fasthttp.Server{
		Handler:                      f.Handle,
		ErrorHandler:                 f.requestError,
		Name:                         ServerName,
		MaxRequestBodySize:           f.maxBody,
		DisablePreParseMultipartForm: true,
		NoDefaultContentType:         true,
		IdleTimeout:                  130 * time.Second, // Kestrel's KeepAliveTimeout
		CloseOnShutdown:              true,
		ConnState:                    s.track,
		// fasthttp would log every request it could not read (a 413, a client gone); the answer says it
		// already, and net/http logs none of these either.
		Logger: quiet{},
	}
	return s
}

type quiet struct{}

func (quiet) Printf(string, ...any) {}

// Server adapts fasthttp.Server to service.Server: its Shutdown takes a context and ends idle
// keep-alive connections, which fasthttp 1.31's own Shutdown waits on until they time out.
//
// Connections are ended through their read deadline, never closed from here: fasthttp panics when it
// sets the idle deadline of a connection someone else closed.
type Server struct {
	*fasthttp.Server
	// conns holds each open connection's state (an *atomic.Int32). Stored once per connection and read
	// per request: sync.Map's lock-free path.
	conns sync.Map
}

// Connection states, as far as shutting down needs them.
const (
	connNew int32 = iota // accepted, no request read yet
	connActive
	connIdle
)

const (
	// newConnGrace is how long a connection that has not sent its first request may still do so after
	// shutdown began (net/http's http.Server waits as long).
	newConnGrace = 5 * time.Second
	// expireEvery repeats the expiry: fasthttp sets a keep-alive connection's idle deadline itself at
	// the start of each wait, which may land just after ours.
	expireEvery = 50 * time.Millisecond
)

func (s *Server) track(c net.Conn, state fasthttp.ConnState) {
	switch state {
	case fasthttp.StateNew:
		s.conns.Store(c, new(atomic.Int32))
	case fasthttp.StateActive, fasthttp.StateIdle:
		if v, ok := s.conns.Load(c); ok {
			st := connActive
			if state == fasthttp.StateIdle {
				st = connIdle
			}
			v.(*atomic.Int32).Store(st)
		}
	default: // closed or hijacked
		s.conns.Delete(c)
	}
}

// expire makes the pending read of every connection whose state end accepts fail now; fasthttp then
// closes the connection itself.
func (s *Server) expire(end func(state int32) bool) {
	now := time.Now()
	s.conns.Range(func(c, state any) bool {
		if end(state.(*atomic.Int32).Load()) {
			_ = c.(net.Conn).SetReadDeadline(now)
		}
		return true
	})
}

// Shutdown stops accepting, ends idle connections at once and silent new ones after newConnGrace,
// lets active ones finish their request (fasthttp closes them after it), and waits for all of them
// until ctx is done.
func (s *Server) Shutdown(ctx context.Context) error {
	done := make(chan error, 1)
	go func() { done <- s.Server.Shutdown() }()
	graceEnds := time.Now().Add(newConnGrace)
	tick := time.NewTicker(expireEvery)
	defer tick.Stop()
	for {
		pastGrace := time.Now().After(graceEnds)
		s.expire(func(state int32) bool { return state == connIdle || (pastGrace && state == connNew) })
		select {
		case err := <-done:
			return err
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// Handle routes one request.
func (f *FrontEnd) Handle(ctx *fasthttp.RequestCtx) {
	path := ctx.Path()
	switch string(path) {
	case service.IngestEventPath:
		if allowed(ctx, service.IngestEventPath, service.WriteAllow) {
			f.ingest(ctx)
		}
	case service.PlaintextPath:
		getText(ctx, service.PlaintextPath, helloText)
	case service.HealthPath:
		getText(ctx, service.HealthPath, healthyText)
	case service.JSONPath:
		if !allowed(ctx, service.JSONPath, service.ReadAllow) {
			return
		}
		// A new object serialized per request, as TechEmpower's JSON test demands.
		body, err := json.Marshal(&service.Hello{Message: service.HelloText})
		if err != nil {
			panic(err) // cannot happen for this type
		}
		ctx.SetContentType(contract.JSONMediaType)
		ctx.SetBody(body)
	default:
		if bytes.HasPrefix(path, valuesPrefix) && service.IsInt32(path[len(valuesPrefix):]) {
			getText(ctx, service.ValuesRoute, valueText)
			return
		}
		writeProblem(ctx, contract.NotFoundProblem())
	}
}

func getText(ctx *fasthttp.RequestCtx, route string, body []byte) {
	if !allowed(ctx, route, service.ReadAllow) {
		return
	}
	ctx.SetContentType(contract.TextMediaType)
	ctx.SetBody(body)
}

// allowed answers 405 unless route, whose Allow value is allow, answers the request's method; false when it
// answered. (fasthttp sends no body for HEAD, and GET's Content-Length.)
func allowed(ctx *fasthttp.RequestCtx, route, allow string) bool {
	if service.Answers(allow, ctx.Method()) {
		return true
	}
	writeProblem(ctx, contract.MethodNotAllowedProblem(route, string(ctx.Method()), allow))
	return false
}

func writeProblem(ctx *fasthttp.RequestCtx, p *contract.Problem) {
	if p.Kind == contract.PayloadTooLarge {
		ctx.SetConnectionClose()
	}
	if p.RetryAfter > 0 {
		ctx.Response.Header.Set("Retry-After", strconv.Itoa(p.RetryAfter))
	}
	if p.Allow != "" {
		ctx.Response.Header.Set("Allow", p.Allow)
	}
	ctx.SetStatusCode(p.Status())
	ctx.SetContentType(contract.ProblemMediaType)
	ctx.SetBody(p.AppendJSON(make([]byte, 0, 256)))
}

func (f *FrontEnd) ingest(ctx *fasthttp.RequestCtx) {
	contentType := ctx.Request.Header.ContentType()
	format, ok := contract.ContentTypeFormat(contentType)
	if !ok {
		writeProblem(ctx, contract.Unsupported(string(contentType), contract.FrontEndMediaTypes))
		return
	}
	// fasthttp has read the whole body already, bounded by MaxRequestBodySize (see requestError).
	body := ctx.PostBody()
	events, p := f.reader.Read(body, format, contract.Now(), nil)
	if p != nil {
		writeProblem(ctx, p)
		return
	}

	buf := forwardBodies.Get().(*[]byte)
	*buf = contract.AppendEvents((*buf)[:0], events)
	p = f.forward(*buf)
	if cap(*buf) <= pooledForwardMax {
		forwardBodies.Put(buf)
	}
	if p != nil {
		writeProblem(ctx, p)
		return
	}
	ctx.SetContentType(contract.JSONMediaType)
	ctx.SetBody(contract.AppendAccepted(make([]byte, 0, 32), len(events)))
}

// Forward bodies are built in pooled buffers: fasthttp copies the body into its own request (SetBody),
// so the buffer is free again as soon as the forward returns.
const pooledForwardMax = 64 << 10

var forwardBodies = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// forward sends body to every back-end at once and returns the first back-end's problem, in the order
// of -backends, or nil once all answered 2xx.
func (f *FrontEnd) forward(body []byte) *contract.Problem {
	if len(f.backEnds) == 1 {
		return f.send(&f.backEnds[0], body)
	}
	problems := make([]*contract.Problem, len(f.backEnds))
	var wg sync.WaitGroup
	for i := range f.backEnds {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			problems[i] = f.send(&f.backEnds[i], body)
		}(i)
	}
	wg.Wait()
	for _, p := range problems {
		if p != nil {
			return p
		}
	}
	return nil
}

// send posts body to one back-end on the handler's own goroutine with HostClient.Do: the client's ReadTimeout and
// WriteTimeout (the -timeout-ms) bound the exchange through the connection's deadlines, and its MaxConnWaitTimeout
// the wait for a connection. fasthttp 1.31's DoDeadline ran every forward on a goroutine of its own with a copy of
// the request and a timer (its maintainers recommend Do with these timeouts, valyala/fasthttp#1072; releases after
// valyala/fasthttp#1346 do the same inside DoDeadline): a thread hop, objects and context switches on every request
// (docs/notebook/go-baselines.md).
func (f *FrontEnd) send(b *backEnd, body []byte) *contract.Problem {
	req := fasthttp.AcquireRequest()
	resp := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.SetRequestURI(b.url)
	req.Header.SetMethod(fasthttp.MethodPost)
	req.Header.SetContentType(contract.JSONMediaType)
	req.SetBody(body)

	err := b.client.Do(req, resp)
	switch {
	case err == nil:
	case errors.Is(err, fasthttp.ErrTimeout), errors.Is(err, fasthttp.ErrNoFreeConns), isTimeout(err):
		return contract.BackEndTimedOut(b.host, f.timeout)
	default:
		return contract.BackEndUnreachable(b.host, err)
	}
	if status := resp.StatusCode(); status < 200 || status > 299 {
		return contract.BackEndAnswered(b.host, status, string(resp.Header.Peek("Retry-After")))
	}
	return nil
}

func isTimeout(err error) bool {
	var netErr net.Error
	return errors.As(err, &netErr) && netErr.Timeout()
}

// requestError answers what fasthttp could not read. A body over the limit is 413 — unless the headers
// already show an unsupported Content-Type for the ingest endpoint: the .NET services look at the
// Content-Type before the body, so that is 415 there, and here too.
func (f *FrontEnd) requestError(ctx *fasthttp.RequestCtx, err error) {
	var small *fasthttp.ErrSmallBuffer
	switch {
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		if string(ctx.Path()) == service.IngestEventPath && ctx.IsPost() {
			if contentType := ctx.Request.Header.ContentType(); !isSupported(contentType) {
				writeProblem(ctx, contract.Unsupported(string(contentType), contract.FrontEndMediaTypes))
				return
			}
		}
		writeProblem(ctx, contract.TooLarge(f.maxBody))
	case errors.As(err, &small):
		ctx.Error("Request header fields too large", fasthttp.StatusRequestHeaderFieldsTooLarge)
	case isTimeout(err):
		ctx.Error("Request timeout", fasthttp.StatusRequestTimeout)
	default:
		ctx.Error("Bad request", fasthttp.StatusBadRequest)
	}
}

func isSupported(contentType []byte) bool {
	_, ok := contract.ContentTypeFormat(contentType)
	return ok
}
