package stdhttp

import (
	"net/http"

	"ingest/contract"
	"ingest/service"
)

// FrontEnd serves POST /ingest/event and the reference endpoints.
type FrontEnd struct {
	reader   contract.RequestReader
	maxBody  int
	forwards *forwarder
}

// NewFrontEnd builds the front-end a validated configuration describes.
func NewFrontEnd(c *service.Config) *FrontEnd {
	return &FrontEnd{
		reader:   contract.RequestReader{MaxBatchEvents: c.MaxBatchEvents},
		maxBody:  c.MaxBodyBytes,
		forwards: newForwarder(c),
	}
}

// Close drops the pooled client's idle connections.
func (f *FrontEnd) Close() { f.forwards.close() }

func (f *FrontEnd) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header()["Server"] = serverHeader
	switch {
	case r.URL.Path == service.IngestEventPath:
		if allowed(w, r, service.IngestEventPath, service.WriteAllow) {
			f.ingest(w, r)
		}
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
	if p := f.forwards.forward(r.Context(), forwardBody); p != nil {
		writeProblem(w, p)
		return
	}
	write(w, http.StatusOK, jsonType, contract.AppendAccepted(make([]byte, 0, 32), len(events)))
}
