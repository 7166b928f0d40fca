package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"ingest"
)

// Forwarder posts normalised events to every back-end with net/http's client, and maps the outcome to
// the contract's 502 and 504.
type Forwarder struct {
	targets    []string
	timeout    time.Duration
	perRequest bool
	pooled     *http.Client
}

// NewForwarder builds the client strategy the configuration names.
func NewForwarder(cfg Config) *Forwarder {
	f := &Forwarder{timeout: cfg.Timeout, perRequest: cfg.Client == "per-request"}
	for _, b := range cfg.BackEnds {
		f.targets = append(f.targets, strings.TrimRight(b, "/")+PathData)
	}
	if !f.perRequest {
		f.pooled = &http.Client{Transport: &http.Transport{
			Proxy:               nil,
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			MaxIdleConns:        cfg.MaxIdlePerHost * len(cfg.BackEnds),
			MaxIdleConnsPerHost: cfg.MaxIdlePerHost,
			IdleConnTimeout:     90 * time.Second,
		}}
	}
	return f
}

// Forward sends the events to every back-end; nil once all acknowledged.
func (f *Forwarder) Forward(ctx context.Context, events []ingest.Event) *ingest.Problem {
	body, err := json.Marshal(events)
	if err != nil {
		return ingest.NewProblem(ingest.BackEndFailed, "The events could not be serialized: "+err.Error(), "")
	}
	if len(f.targets) == 1 {
		return f.send(ctx, f.targets[0], body)
	}
	problems := make([]*ingest.Problem, len(f.targets))
	var wg sync.WaitGroup
	for i, target := range f.targets {
		wg.Add(1)
		go func(i int, target string) {
			defer wg.Done()
			problems[i] = f.send(ctx, target, body)
		}(i, target)
	}
	wg.Wait()
	for _, p := range problems {
		if p != nil {
			return p
		}
	}
	return nil
}

func (f *Forwarder) send(parent context.Context, target string, body []byte) *ingest.Problem {
	ctx, cancel := context.WithTimeout(parent, f.timeout)
	defer cancel()
	request, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return ingest.NewProblem(ingest.BackEndFailed, "Bad back-end URL: "+err.Error(), "")
	}
	request.Header.Set("Content-Type", jsonType)

	client := f.pooled
	if f.perRequest {
		// The 2016 fix: a transport per forward, keep-alive off, so every forward opens its own connection.
		transport := &http.Transport{Proxy: nil, DisableKeepAlives: true}
		defer transport.CloseIdleConnections()
		client = &http.Client{Transport: transport}
	}
	response, err := client.Do(request)
	authority := authorityOf(target)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && parent.Err() == nil {
			return ingest.NewProblem(ingest.BackEndTimeout, fmt.Sprintf("The back-end %s did not answer within %d ms.", authority, f.timeout.Milliseconds()), "")
		}
		return ingest.NewProblem(ingest.BackEndFailed, fmt.Sprintf("The back-end %s could not be reached: %v.", authority, err), "")
	}
	_, _ = io.Copy(io.Discard, response.Body)
	response.Body.Close()
	if response.StatusCode/100 != 2 {
		return ingest.NewProblem(ingest.BackEndFailed, fmt.Sprintf("The back-end %s answered %d.", authority, response.StatusCode), "")
	}
	return nil
}

func authorityOf(target string) string {
	if u, err := url.Parse(target); err == nil {
		return u.Host
	}
	return target
}
