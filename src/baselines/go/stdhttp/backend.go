package stdhttp

import (
	"net/http"

	"ingest/contract"
	"ingest/service"
)

// BackEnd serves POST /ingest/data, GET /ingest/stats and /healthz over an in-memory counting sink.
type BackEnd struct {
	sink    *service.Sink
	maxBody int
	blank   *service.StatusPage // the page without counters: title and configuration, made once
	counts  *counters
	recent  recentBodies
}

// NewBackEnd builds the back-end a validated configuration describes.
func NewBackEnd(c *service.Config) *BackEnd {
	return &BackEnd{sink: service.NewSink(c.DropOneIn, c.Delay), maxBody: c.MaxBodyBytes, blank: service.NewStatusPage(c), counts: newCounters()}
}

// Stats are the counts persisted since start.
func (b *BackEnd) Stats() contract.Stats { return b.sink.Stats() }

func (b *BackEnd) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := &recorder{ResponseWriter: w}
	b.serve(rec, r)
	b.counts.answered(rec.code())
}

func (b *BackEnd) serve(w http.ResponseWriter, r *http.Request) {
	w.Header()["Server"] = serverHeader
	switch {
	case isPage(r.URL.Path):
		writePage(w, r, r.URL.Path, b.page())
	case r.URL.Path == contract.DataPath:
		if allowed(w, r, contract.DataPath, service.WriteAllow) {
			b.data(w, r)
		}
	case r.URL.Path == service.IngestStatsPath:
		if allowed(w, r, service.IngestStatsPath, service.ReadAllow) {
			write(w, http.StatusOK, jsonType, b.sink.Stats().AppendJSON(make([]byte, 0, 96)))
		}
	case reference(w, r, false):
	default:
		writeProblem(w, contract.NotFoundProblem())
	}
}

// page is the back-end's status page: configuration, requests, errors, events persisted, the last events.
func (b *BackEnd) page() *service.StatusPage {
	p := b.blank.Page()
	b.counts.addTo(p)
	stats := b.sink.Stats()
	p.CountEvents(stats)
	if total := stats.Total(); total > 0 {
		p.Count("persisted.null", total) // the peer of the .NET Null sink: counted, nothing kept
	}
	p.AddEvents(b.recent.events())
	return p
}

func (b *BackEnd) data(w http.ResponseWriter, r *http.Request) {
	contentType := r.Header.Get("Content-Type")
	if format, ok := contract.ContentTypeFormat(contentType); !ok || format != contract.JSON {
		writeProblem(w, contract.Unsupported(contentType, contract.JSONMediaType))
		return
	}
	buf, body, p := readBody(r, b.maxBody)
	if p != nil {
		writeProblem(w, p)
		return
	}
	types, p := contract.ReadForwarded(body, nil)
	if p != nil {
		releaseBody(buf)
		writeProblem(w, p)
		return
	}
	if err := b.sink.Persist(r.Context(), types); err != nil {
		// The caller went away during the injected delay: nothing was persisted and nobody is listening.
		releaseBody(buf)
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	b.recent.keep(body)
	releaseBody(buf)
	// Acknowledged with the count received, even when the drop fault lost some: that is the fault.
	write(w, http.StatusOK, jsonType, contract.AppendPersisted(make([]byte, 0, 32), len(types)))
}
