package stdhttp

import (
	"context"
	"net/http"

	"ingest/contract"
	"ingest/service"
)

// FrontEnd serves POST /ingest/event and the reference endpoints.
type FrontEnd struct {
	reader   contract.RequestReader
	maxBody  int
	forwards *forwarder
	blank    *service.StatusPage // the page without counters: title and configuration, made once
	counts   *service.Counters
}

// NewFrontEnd builds the front-end a validated configuration describes.
func NewFrontEnd(c *service.Config) *FrontEnd {
	counts := service.NewCounters()
	return &FrontEnd{
		reader:   contract.RequestReader{MaxBatchEvents: c.MaxBatchEvents},
		maxBody:  c.MaxBodyBytes,
		forwards: newForwarder(c, counts),
		blank:    service.NewStatusPage(c),
		counts:   counts,
	}
}

// Close drops the pooled client's idle connections.
func (f *FrontEnd) Close() { f.forwards.close() }

func (f *FrontEnd) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := &recorder{ResponseWriter: w}
	f.serve(rec, r)
	f.counts.Answered(rec.code())
}

func (f *FrontEnd) serve(w http.ResponseWriter, r *http.Request) {
	w.Header()["Server"] = serverHeader
	switch {
	case r.URL.Path == service.IngestEventPath:
		if allowed(w, r, service.IngestEventPath, service.WriteAllow) {
			f.ingest(w, r)
		}
	case isPage(r.URL.Path):
		writePage(w, r, r.URL.Path, f.page())
	case reference(w, r, true):
	default:
		writeProblem(w, contract.NotFoundProblem())
	}
}

func (f *FrontEnd) ingest(w http.ResponseWriter, r *http.Request) {
	contentType := r.Header.Get("Content-Type")
	format, ok := contract.ContentTypeFormat(contentType)
	if !ok {
		writeProblem(w, contract.Unsupported(contentType, contract.FrontEndMediaTypes))
		return
	}
	buf, body, p := readBody(r, f.maxBody)
	if p != nil {
		writeProblem(w, p)
		return
	}
	events, p := f.reader.Read(body, format, contract.Now(), nil)
	forward := len(body)
	releaseBody(buf)
	if p != nil {
		writeProblem(w, p)
		return
	}

	// The forward body is allocated per request, deliberately: net/http may still be writing it after
	// the answer arrived (RoundTrip closes request bodies asynchronously), so it cannot be pooled.
	forwardBody := contract.AppendEvents(make([]byte, 0, forward+160*len(events)), events)
	// Not r.Context(): net/http cancels it when the client's connection reads EOF, and a client that half-closes after
	// its whole request (shutdown(SHUT_WR)) is still waiting for the answer (docs/contract.md, "Half-close"). The
	// forward has its own timeout (forwarder.forward); a client that went away entirely only loses its answer.
	if p := f.forwards.forward(context.Background(), forwardBody); p != nil {
		writeProblem(w, p)
		return
	}
	f.counts.AcceptedEvents(events)
	write(w, http.StatusOK, jsonType, contract.AppendAccepted(make([]byte, 0, 32), len(events)))
}

func (f *FrontEnd) page() *service.StatusPage { return f.counts.FrontEndPage(f.blank) }
