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
	targets []service.BackEndTarget
	timeout time.Duration
	// client gives the client for one forward and what to do when it is done.
	client func() (*http.Client, func())
	close  func()
	counts *counters
}

func newForwarder(c *service.Config, counts *counters) *forwarder {
	f := &forwarder{targets: c.BackEnds, timeout: c.Timeout, counts: counts}
	if c.Client == service.PerRequest {
		// The 2016 original's fix: a new transport per forward with keep-alive off, so every forward opens
		// (and leaves in TIME_WAIT) its own TCP connection.
		f.client = func() (*http.Client, func()) {
			t := newTransport()
			t.DisableKeepAlives = true
			return newClient(t), t.CloseIdleConnections
		}
		f.close = func() {}
		return f
	}
	// One shared client: the like-for-like peer of a static .NET HttpClient. Go keeps only 2 idle
	// connections per host by default, a TIME_WAIT trap under load, hence MaxIdleConnsPerHost.
	t := newTransport()
	t.MaxIdleConnsPerHost = c.MaxIdlePerHost
	t.MaxConnsPerHost = c.MaxConnsPerHost
	shared := newClient(t)
	f.client = func() (*http.Client, func()) { return shared, func() {} }
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

func newClient(t *http.Transport) *http.Client {
	return &http.Client{
		Transport: t,
		// A redirect is an answer other than 2xx, hence 502, as .NET's AllowAutoRedirect = false.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// forward sends body to every back-end at once and returns the first back-end's problem, in the order
// of -backends, or nil once all answered 2xx.
func (f *forwarder) forward(ctx context.Context, body []byte) *contract.Problem {
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	if len(f.targets) == 1 {
		return f.send(ctx, f.targets[0], body)
	}
	problems := make([]*contract.Problem, len(f.targets))
	var wg sync.WaitGroup
	for i := range f.targets {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			problems[i] = f.send(ctx, f.targets[i], body)
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

func (f *forwarder) send(ctx context.Context, target service.BackEndTarget, body []byte) *contract.Problem {
	p := f.call(ctx, target, body)
	f.counts.forwarded(p)
	return p
}

func (f *forwarder) call(ctx context.Context, target service.BackEndTarget, body []byte) *contract.Problem {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target.URL, bytes.NewReader(body))
	if err != nil {
		return contract.BackEndUnreachable(target.Host, err)
	}
	req.Header["Content-Type"] = jsonType

	client, done := f.client()
	defer done()
	resp, err := client.Do(req)
	if err != nil {
		return f.failed(ctx, target, err)
	}
	_, err = io.Copy(io.Discard, io.LimitReader(resp.Body, maxAnswerBytes))
	resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return contract.BackEndAnswered(target.Host, resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if err != nil {
		return f.failed(ctx, target, err)
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
