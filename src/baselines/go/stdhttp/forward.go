package stdhttp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"ingest/contract"
	"ingest/service"
)

// maxAnswerBytes is how much of a back-end's answer is read so the connection can be reused; a longer
// answer costs that connection, nothing more.
const maxAnswerBytes = 64 << 10

// forwarder posts a forward body to every back-end and maps the outcome to the contract's 502 and 504.
type forwarder struct {
	targets []target
	timeout time.Duration
	// transport gives the transport for one forward and what to do when it is done.
	transport func() (http.RoundTripper, func())
	close     func()
	counts    *service.Counters
}

// target is a back-end with its forward request prepared once: method, parsed URL and host. Each forward is a
// shallow copy of it with its own context, body and header map (forwardHeader); the URL is shared, read-only (a
// RoundTripper must not modify a request). http.NewRequest per forward parsed the URL again and built the header
// map on every request, which showed in the front-end's CPU and allocation profiles
// (docs/notebook/go-baselines.md).
type target struct {
	service.BackEndTarget
	template *http.Request
}

func newForwarder(c *service.Config, counts *service.Counters) *forwarder {
	f := &forwarder{timeout: c.Timeout, counts: counts}
	for _, t := range c.BackEnds {
		template, err := http.NewRequest(http.MethodPost, t.URL, http.NoBody)
		if err != nil {
			panic(err) // service.Parse has built and checked every URL
		}
		f.targets = append(f.targets, target{BackEndTarget: t, template: template})
	}
	if c.Client == service.PerRequest {
		// The 2016 original's fix: a new transport per forward with keep-alive off, so every forward opens
		// (and leaves in TIME_WAIT) its own TCP connection.
		f.transport = func() (http.RoundTripper, func()) {
			t := newTransport()
			t.DisableKeepAlives = true
			return t, t.CloseIdleConnections
		}
		f.close = func() {}
		return f
	}
	// One shared transport: the like-for-like peer of a static .NET HttpClient. Go keeps only 2 idle
	// connections per host by default, a TIME_WAIT trap under load, hence MaxIdleConnsPerHost.
	t := newTransport()
	t.MaxIdleConnsPerHost = c.MaxIdlePerHost
	t.MaxConnsPerHost = c.MaxConnsPerHost
	f.transport = func() (http.RoundTripper, func()) { return t, func() {} }
	f.close = t.CloseIdleConnections
	return f
}

func newTransport() *http.Transport {
	return &http.Transport{
		// Loopback and private back-ends: a proxy from the environment would only add a hop (as .NET's UseProxy = false).
		Proxy:       nil,
		DialContext: (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		// No total cap: the per-host settings decide, whatever the number of back-ends.
		MaxIdleConns:    0,
		IdleConnTimeout: 90 * time.Second,
		// The back-ends answer a few bytes; asking for gzip would only add a header (.NET asks for none).
		DisableCompression: true,
	}
}

// forward sends body to every back-end at once and returns the first back-end's problem, in the order
// of -backends, or nil once all answered 2xx.
func (f *forwarder) forward(ctx context.Context, body []byte) *contract.Problem {
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	header := forwardHeader()
	if len(f.targets) == 1 {
		// Without a closure: it would escape to the fan-out's goroutines, one allocation a forward.
		return f.send(ctx, &f.targets[0], header, body)
	}
	return service.EveryBackEnd(len(f.targets), func(i int) *contract.Problem { return f.send(ctx, &f.targets[i], header, body) })
}

// forwardHeader is one forward's header map: Content-Type and a fresh Idempotency-Key, one key per forward, shared by
// every back-end it goes to and by the transport's resend on a connection the back-end had closed (as the .NET
// front-end's retries share theirs). A map per forward, because the key is the forward's own: the key's 32 bytes, its
// []string and the map's small allocations, next to the transport's own per request.
func forwardHeader() http.Header {
	var key [contract.IdempotencyKeyLength]byte
	return http.Header{"Content-Type": jsonType, idempotencyKeyHeader: {string(contract.AppendIdempotencyKey(key[:0]))}}
}

// send posts body to one back-end through the transport itself, not an http.Client: the client's only work
// here would be redirects, which the contract answers as 502 (.NET's AllowAutoRedirect = false), and per
// request it cloned the headers for them and set up its own deadline machinery, a large share of the front-end's
// bytes allocated in the profile (docs/notebook/go-baselines.md). A 3xx is an answer other than 2xx, hence 502,
// exactly as before.
func (f *forwarder) send(ctx context.Context, t *target, header http.Header, body []byte) *contract.Problem {
	p := f.call(ctx, t, header, body)
	f.counts.Forwarded(p)
	return p
}

func (f *forwarder) call(ctx context.Context, t *target, header http.Header, body []byte) *contract.Problem {
	req := t.template.WithContext(ctx)
	req.Header = header
	req.Body, req.ContentLength = newForwardBody(body), int64(len(body))
	// What the transport needs to resend a forward on a pooled connection the back-end had closed.
	req.GetBody = func() (io.ReadCloser, error) { return newForwardBody(body), nil }

	transport, done := f.transport()
	defer done()
	resp, err := transport.RoundTrip(req)
	if err != nil {
		return f.failed(ctx, t.BackEndTarget, err)
	}
	err = drain(resp.Body)
	resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return contract.BackEndAnswered(t.Host, resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if err != nil {
		return f.failed(ctx, t.BackEndTarget, err)
	}
	return nil
}

// newForwardBody is a forward's request body. It stays io.NopCloser over a *bytes.Reader, two allocations where a
// type of our own would make one: net/http knows that pair is in memory and writes the headers and the body in one
// system call, while for any other reader it flushes the headers first (a second write per forward).
func newForwardBody(b []byte) io.ReadCloser { return io.NopCloser(bytes.NewReader(b)) }

// drainBuffers hold what drain reads; a buffer on the stack would escape to the heap through the Read interface.
var drainBuffers = sync.Pool{New: func() any { return new([512]byte) }}

// drain reads up to maxAnswerBytes of an answer, so its connection can carry the next forward, into a pooled
// buffer (io.Copy through an io.LimitReader allocated the reader per forward).
func drain(body io.Reader) error {
	buf := drainBuffers.Get().(*[512]byte)
	defer drainBuffers.Put(buf)
	for read := 0; read < maxAnswerBytes; {
		n, err := body.Read(buf[:])
		read += n
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (f *forwarder) failed(ctx context.Context, target service.BackEndTarget, err error) *contract.Problem {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return contract.BackEndTimedOut(target.Host, f.timeout)
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		err = urlErr.Err // the URL is in the detail already
	}
	return contract.BackEndUnreachable(target.Host, err)
}
