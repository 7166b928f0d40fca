// Package fast is the Go flow on valyala/fasthttp, the strongest Go peer: a front-end forwarding with a pooled
// fasthttp.HostClient per back-end, and a back-end, both with the same contract (package contract does all of it) and
// the same back-end work (service.BackEndCore) as the net/http flow, so the pair is fasthttp on both sides.
package fast

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
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
	htmlType     = "text/html; charset=utf-8"
)

// role is what a front-end or back-end plugs into the shared server.
type role struct {
	handle  fasthttp.RequestHandler
	counts  *service.Counters
	maxBody int
	// writePath is the role's POST route, and unsupported its 415 for a Content-Type it does not take (nil when it
	// takes it): checked before the size of a body fasthttp refused, as the .NET services look at the Content-Type
	// before the body.
	writePath   string
	unsupported func(contentType []byte) *contract.Problem
}

// newServer is the fasthttp server of a role, ready for service.Run; every answer is counted for the status page.
func newServer(r role) *Server {
	s := &Server{}
	s.Server = &fasthttp.Server{
		Handler: func(ctx *fasthttp.RequestCtx) {
			if name := nonTokenName(ctx.Request.Header.RawHeaders()); name != nil {
				writeProblem(ctx, contract.NotATokenProblem(name))
			} else {
				r.handle(ctx)
			}
			r.counts.Answered(ctx.Response.StatusCode())
		},
		ErrorHandler: func(ctx *fasthttp.RequestCtx, err error) {
			r.requestError(ctx, err)
			r.counts.Answered(ctx.Response.StatusCode())
		},
		Name:                         ServerName,
		MaxRequestBodySize:           r.maxBody,
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

// requestError answers what fasthttp could not read. A body over the limit is 413 — unless the headers already show an
// unsupported Content-Type for the role's POST route: that is 415, as in the .NET services.
func (r role) requestError(ctx *fasthttp.RequestCtx, err error) {
	var small *fasthttp.ErrSmallBuffer
	switch {
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		if string(ctx.Path()) == r.writePath && ctx.IsPost() {
			if p := r.unsupported(ctx.Request.Header.ContentType()); p != nil {
				writeProblem(ctx, p)
				return
			}
		}
		writeProblem(ctx, contract.TooLarge(r.maxBody))
	case errors.As(err, &small):
		ctx.Error("Request header fields too large", fasthttp.StatusRequestHeaderFieldsTooLarge)
	case isTimeout(err):
		ctx.Error("Request timeout", fasthttp.StatusRequestTimeout)
	default:
		ctx.Error("Bad request", fasthttp.StatusBadRequest)
	}
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
	if p.Kind == contract.PayloadTooLarge || p.Kind == contract.MalformedRequest {
		// The rest of the body was never read, or a proxy in front may have read the request differently: the
		// connection cannot carry another request.
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

// nonTokenName is the first header field name in raw (the request's header lines as received, up to the empty line)
// that is not a token, or nil when every name is one. fasthttp 1.31 takes any bytes before a colon as a name (net/http
// and hyper refuse such a request with their own 400); the .NET services answer 400 malformed-request
// (docs/contract.md, "Header fields"). A scan of bytes fasthttp keeps anyway: nothing allocated.
func nonTokenName(raw []byte) []byte {
	for first := true; len(raw) > 0; first = false {
		end := bytes.IndexByte(raw, '\n')
		if end < 0 {
			end = len(raw) - 1
		}
		line := raw[:end+1]
		raw = raw[end+1:]
		if len(line) <= 2 && (len(line) == 1 || line[0] == '\r') {
			return nil // the empty line ending the header
		}
		if !first && (line[0] == ' ' || line[0] == '\t') {
			continue // an obsolete line folding: the value goes on
		}
		colon := bytes.IndexByte(line, ':')
		if colon < 0 {
			colon = len(line) // fasthttp refuses such a line itself
		}
		if !contract.IsToken(line[:colon]) {
			return line[:colon]
		}
	}
	return nil
}

func isTimeout(err error) bool {
	var netErr net.Error
	return errors.As(err, &netErr) && netErr.Timeout()
}

// reference answers the routes both roles share (/healthz) and, on a front-end, the reference endpoints; false when
// path is none of them.
func reference(ctx *fasthttp.RequestCtx, path []byte, frontEnd bool) bool {
	switch string(path) {
	case service.HealthPath:
		getText(ctx, service.HealthPath, healthyText)
		return true
	}
	if !frontEnd {
		return false
	}
	switch string(path) {
	case service.PlaintextPath:
		getText(ctx, service.PlaintextPath, helloText)
	case service.JSONPath:
		if !allowed(ctx, service.JSONPath, service.ReadAllow) {
			return true
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
			return true
		}
		return false
	}
	return true
}

// isPage reports whether path is the status page's (GET / and GET /status).
func isPage(path []byte) bool {
	return string(path) == service.RootPath || string(path) == service.StatusPath
}

// writePage renders the page page makes (GET and HEAD only).
func writePage(ctx *fasthttp.RequestCtx, path []byte, page func() *service.StatusPage) {
	if !allowed(ctx, string(path), service.ReadAllow) {
		return
	}
	body, err := page().Render()
	if err != nil {
		writeProblem(ctx, &contract.Problem{Kind: contract.BackEndFailed, Detail: "The status page did not render: " + err.Error()})
		return
	}
	ctx.SetContentType(htmlType)
	ctx.SetBody(body)
}
