package stdhttp

import (
	"net/http"

	"ingest/contract"
	"ingest/service"
)

// BackEnd serves POST /ingest/data, GET /ingest/stats, /healthz and the status page on net/http; what it does with a
// request is service.BackEnd's, shared with the fasthttp back-end.
type BackEnd struct {
	core    *service.BackEndCore
	maxBody int
}

// NewBackEnd builds the back-end a validated configuration describes.
func NewBackEnd(c *service.Config) *BackEnd {
	return &BackEnd{core: service.NewBackEndCore(c), maxBody: c.MaxBodyBytes}
}

// Stats are the sink's counts.
func (b *BackEnd) Stats() contract.Stats { return b.core.Stats() }

// ServeHTTP routes one request and counts its answer.
func (b *BackEnd) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := &recorder{ResponseWriter: w}
	b.serve(rec, r)
	b.core.Counts.Answered(rec.code())
}

func (b *BackEnd) serve(w http.ResponseWriter, r *http.Request) {
	w.Header()["Server"] = serverHeader
	switch {
	case isPage(r.URL.Path):
		writePage(w, r, r.URL.Path, b.core.Page())
	case r.URL.Path == contract.DataPath:
		if allowed(w, r, contract.DataPath, service.WriteAllow) {
			b.data(w, r)
		}
	case r.URL.Path == service.IngestStatsPath:
		if allowed(w, r, service.IngestStatsPath, service.ReadAllow) {
			write(w, http.StatusOK, jsonType, b.core.Stats().AppendJSON(make([]byte, 0, 96)))
		}
	case reference(w, r, false):
	default:
		writeProblem(w, contract.NotFoundProblem())
	}
}

func (b *BackEnd) data(w http.ResponseWriter, r *http.Request) {
	if p := service.CheckContentType(r.Header.Get("Content-Type")); p != nil {
		writeProblem(w, p)
		return
	}
	buf, body, p := readBody(r, b.maxBody)
	if p != nil {
		writeProblem(w, p)
		return
	}
	var key string
	if keys := r.Header[idempotencyKeyHeader]; len(keys) > 0 {
		key = keys[0]
	}
	n, p, err := service.Persist(r.Context(), b.core, body, key)
	releaseBody(buf)
	switch {
	case p != nil:
		writeProblem(w, p)
	case err != nil:
		// The caller left during the injected delay: nothing was persisted, and nobody reads the answer.
		w.WriteHeader(http.StatusServiceUnavailable)
	default:
		write(w, http.StatusOK, jsonType, contract.AppendPersisted(make([]byte, 0, 32), n))
	}
}
