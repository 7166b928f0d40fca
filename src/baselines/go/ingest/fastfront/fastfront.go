// Package fastfront is the Go fasthttp front-end of Ingest: the same contract and validation as the
// net/http one (package ingest), on fasthttp's server and pooled client — the strongest Go peer.
package fastfront

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/valyala/fasthttp"

	"ingest"
	"ingest/server"
)

// ServerName is the Server header of the fasthttp front-end.
const ServerName = "go-fasthttp"

// NewServer builds the fasthttp server for the front-end.
func NewServer(cfg server.Config) *fasthttp.Server {
	front := &frontEnd{
		reader: ingest.Reader{MaxBatchEvents: cfg.MaxBatchEvents},
		client: &fasthttp.Client{
			Name:                     ServerName,
			NoDefaultUserAgentHeader: true,
			MaxConnsPerHost:          max(cfg.MaxIdlePerHost, fasthttp.DefaultMaxConnsPerHost),
			MaxIdleConnDuration:      90 * time.Second,
		},
		timeout: cfg.Timeout,
		maxBody: cfg.MaxBodyBytes,
	}
	for _, b := range cfg.BackEnds {
		front.targets = append(front.targets, strings.TrimRight(b, "/")+server.PathData)
	}
	return &fasthttp.Server{
		Handler:            front.handle,
		Name:               ServerName,
		MaxRequestBodySize: cfg.MaxBodyBytes,
		// fasthttp answers reading errors itself; this makes them the contract's problems.
		ErrorHandler: func(ctx *fasthttp.RequestCtx, err error) {
			if errors.Is(err, fasthttp.ErrBodyTooLarge) {
				writeProblem(ctx, server.TooLarge(cfg.MaxBodyBytes))
				return
			}
			writeProblem(ctx, ingest.NewProblem(ingest.MalformedJSON, "The request could not be read: "+err.Error(), ""))
		},
	}
}

type frontEnd struct {
	reader  ingest.Reader
	client  *fasthttp.Client
	targets []string
	timeout time.Duration
	maxBody int
}

func (f *frontEnd) handle(ctx *fasthttp.RequestCtx) {
	path := string(ctx.Path())
	switch {
	case ctx.IsPost() && path == server.PathEvent:
		contentType := string(ctx.Request.Header.ContentType())
		format, ok := ingest.ParseContentType(contentType)
		if !ok {
			writeProblem(ctx, server.UnsupportedMediaType(contentType, true))
			return
		}
		events, problem := f.reader.Read(format, ctx.PostBody(), time.Now())
		if problem == nil {
			problem = f.forward(events)
		}
		if problem != nil {
			writeProblem(ctx, problem)
			return
		}
		writeJSON(ctx, fasthttp.StatusOK, "application/json", server.Accepted{Accepted: len(events)})
	case ctx.IsGet() && path == server.PathJSON:
		writeJSON(ctx, fasthttp.StatusOK, "application/json", &server.Hello{Message: "Hello, World!"})
	default:
		if ctx.IsGet() {
			if text, ok := server.FixedText(path, true); ok {
				ctx.SetContentType("text/plain")
				ctx.SetBody(text)
				return
			}
		}
		writeProblem(ctx, server.NotFound())
	}
}

func (f *frontEnd) forward(events []ingest.Event) *ingest.Problem {
	body, err := json.Marshal(events)
	if err != nil {
		return ingest.NewProblem(ingest.BackEndFailed, "The events could not be serialized: "+err.Error(), "")
	}
	if len(f.targets) == 1 {
		return f.send(f.targets[0], body)
	}
	results := make(chan *ingest.Problem, len(f.targets))
	for _, target := range f.targets {
		go func(target string) { results <- f.send(target, body) }(target)
	}
	var first *ingest.Problem
	for range f.targets {
		if p := <-results; p != nil && first == nil {
			first = p
		}
	}
	return first
}

func (f *frontEnd) send(target string, body []byte) *ingest.Problem {
	request := fasthttp.AcquireRequest()
	response := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(request)
	defer fasthttp.ReleaseResponse(response)
	request.SetRequestURI(target)
	request.Header.SetMethod(fasthttp.MethodPost)
	request.Header.SetContentType("application/json")
	request.SetBodyRaw(body)
	authority := string(request.URI().Host())
	err := f.client.DoTimeout(request, response, f.timeout)
	switch {
	case errors.Is(err, fasthttp.ErrTimeout):
		return ingest.NewProblem(ingest.BackEndTimeout, fmt.Sprintf("The back-end %s did not answer within %d ms.", authority, f.timeout.Milliseconds()), "")
	case err != nil:
		return ingest.NewProblem(ingest.BackEndFailed, fmt.Sprintf("The back-end %s could not be reached: %v.", authority, err), "")
	case response.StatusCode()/100 != 2:
		return ingest.NewProblem(ingest.BackEndFailed, "The back-end "+authority+" answered "+strconv.Itoa(response.StatusCode())+".", "")
	}
	return nil
}

func writeProblem(ctx *fasthttp.RequestCtx, p *ingest.Problem) {
	if p.Status == fasthttp.StatusRequestEntityTooLarge {
		ctx.SetConnectionClose()
	}
	writeJSON(ctx, p.Status, ingest.ProblemMediaType, p)
}

func writeJSON(ctx *fasthttp.RequestCtx, status int, contentType string, value any) {
	body, err := json.Marshal(value)
	if err != nil {
		ctx.Error(err.Error(), fasthttp.StatusInternalServerError)
		return
	}
	ctx.SetStatusCode(status)
	ctx.SetContentType(contentType)
	ctx.SetBody(body)
}

func max(a, b int) int {
	if a > b {
		return a
	}
	return b
}
