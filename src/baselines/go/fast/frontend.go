package fast

import (
	"errors"
	"math"
	"sync"
	"time"

	"github.com/valyala/fasthttp"

	"ingest/contract"
	"ingest/service"
)

// FrontEnd serves POST /ingest/event, the reference endpoints and the status page on fasthttp.
type FrontEnd struct {
	reader   contract.RequestReader
	maxBody  int
	timeout  time.Duration
	backEnds []backEnd
	blank    *service.StatusPage // the page without counters: title and configuration, made once
	counts   *service.Counters
}

type backEnd struct {
	client *fasthttp.HostClient
	url    string
	host   string
}

// NewFrontEnd builds the front-end a validated configuration describes.
func NewFrontEnd(c *service.Config) *FrontEnd {
	f := &FrontEnd{
		reader:  contract.RequestReader{MaxBatchEvents: c.MaxBatchEvents},
		maxBody: c.MaxBodyBytes,
		timeout: c.Timeout,
		blank:   service.NewStatusPage(c),
		counts:  service.NewCounters(),
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
	return newServer(role{handle: f.Handle, counts: f.counts, maxBody: f.maxBody, writePath: service.IngestEventPath, unsupported: unsupportedAtFrontEnd})
}

func unsupportedAtFrontEnd(contentType []byte) *contract.Problem {
	if _, ok := contract.ContentTypeFormat(contentType); ok {
		return nil
	}
	return contract.Unsupported(string(contentType), contract.FrontEndMediaTypes)
}

// Handle routes one request.
func (f *FrontEnd) Handle(ctx *fasthttp.RequestCtx) {
	path := ctx.Path()
	switch {
	case string(path) == service.IngestEventPath:
		if allowed(ctx, service.IngestEventPath, service.WriteAllow) {
			f.ingest(ctx)
		}
	case isPage(path):
		writePage(ctx, path, f.page)
	case reference(ctx, path, true):
	default:
		writeProblem(ctx, contract.NotFoundProblem())
	}
}

func (f *FrontEnd) page() *service.StatusPage { return f.counts.FrontEndPage(f.blank) }

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
	var key [contract.IdempotencyKeyLength]byte // one per forward, shared by every back-end it goes to
	p = f.forward(*buf, contract.AppendIdempotencyKey(key[:0]))
	if cap(*buf) <= pooledForwardMax {
		forwardBodies.Put(buf)
	}
	if p != nil {
		writeProblem(ctx, p)
		return
	}
	f.counts.AcceptedEvents(events)
	ctx.SetContentType(contract.JSONMediaType)
	ctx.SetBody(contract.AppendAccepted(make([]byte, 0, 32), len(events)))
}

// Forward bodies are built in pooled buffers: fasthttp copies the body into its own request (SetBody),
// so the buffer is free again as soon as the forward returns.
const pooledForwardMax = 64 << 10

var idempotencyKeyHeader = []byte(contract.IdempotencyKeyHeader)

var forwardBodies = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// forward sends body to every back-end at once and returns the first back-end's problem, in the order
// of -backends, or nil once all answered 2xx.
func (f *FrontEnd) forward(body, key []byte) *contract.Problem {
	if len(f.backEnds) == 1 {
		// Without a closure: it would escape to the fan-out's goroutines, one allocation a forward.
		return f.send(&f.backEnds[0], body, key)
	}
	return service.EveryBackEnd(len(f.backEnds), func(i int) *contract.Problem { return f.send(&f.backEnds[i], body, key) })
}

// send forwards to one back-end and counts the outcome for the status page, as the net/http front-end does.
func (f *FrontEnd) send(b *backEnd, body, key []byte) *contract.Problem {
	p := f.call(b, body, key)
	f.counts.Forwarded(p)
	return p
}

// call posts body to one back-end on the handler's own goroutine with HostClient.Do: the client's ReadTimeout and
// WriteTimeout (the -timeout-ms) bound the exchange through the connection's deadlines, and its MaxConnWaitTimeout
// the wait for a connection. fasthttp 1.31's DoDeadline ran every forward on a goroutine of its own with a copy of
// the request and a timer (its maintainers recommend Do with these timeouts, valyala/fasthttp#1072; releases after
// valyala/fasthttp#1346 do the same inside DoDeadline): a thread hop, objects and context switches on every request
// (docs/notebook/go-baselines.md).
func (f *FrontEnd) call(b *backEnd, body, key []byte) *contract.Problem {
	req := fasthttp.AcquireRequest()
	resp := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.SetRequestURI(b.url)
	req.Header.SetMethod(fasthttp.MethodPost)
	req.Header.SetContentType(contract.JSONMediaType)
	req.Header.SetCanonical(idempotencyKeyHeader, key) // copied into the pooled request's buffer: no allocation
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
