package fast

import (
	"context"

	"github.com/valyala/fasthttp"

	"ingest/contract"
	"ingest/service"
)

// BackEnd serves POST /ingest/data, GET /ingest/stats, /healthz and the status page on fasthttp; what it does with a
// request is service.BackEndCore's, shared with the net/http back-end, so the two differ only in their HTTP stack.
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

// Server is the fasthttp server for this back-end, ready for service.Run.
func (b *BackEnd) Server() *Server {
	return newServer(role{handle: b.Handle, counts: b.core.Counts, maxBody: b.maxBody, writePath: contract.DataPath, unsupported: unsupportedAtBackEnd})
}

func unsupportedAtBackEnd(contentType []byte) *contract.Problem {
	return service.CheckContentType(contentType)
}

// Handle routes one request.
func (b *BackEnd) Handle(ctx *fasthttp.RequestCtx) {
	path := ctx.Path()
	switch {
	case string(path) == contract.DataPath:
		if allowed(ctx, contract.DataPath, service.WriteAllow) {
			b.data(ctx)
		}
	case string(path) == service.IngestStatsPath:
		if allowed(ctx, service.IngestStatsPath, service.ReadAllow) {
			ctx.SetContentType(contract.JSONMediaType)
			ctx.SetBody(b.core.Stats().AppendJSON(make([]byte, 0, 96)))
		}
	case isPage(path):
		writePage(ctx, path, b.core.Page)
	case reference(ctx, path, false):
	default:
		writeProblem(ctx, contract.NotFoundProblem())
	}
}

// data persists one forward. fasthttp has read the whole body already, bounded by MaxRequestBodySize. The persist runs
// without a context to end it: fasthttp tells a handler neither that its caller left (net/http's back-end then drops
// the request during an injected delay) nor anything but that the server shuts down, when in-flight requests must
// still finish.
func (b *BackEnd) data(ctx *fasthttp.RequestCtx) {
	if p := service.CheckContentType(ctx.Request.Header.ContentType()); p != nil {
		writeProblem(ctx, p)
		return
	}
	key := ctx.Request.Header.PeekBytes(idempotencyKeyHeader)
	n, p, err := service.Persist(context.Background(), b.core, ctx.PostBody(), key)
	switch {
	case p != nil:
		writeProblem(ctx, p)
	case err != nil:
		ctx.SetStatusCode(fasthttp.StatusServiceUnavailable) // cannot happen without a context that ends
	default:
		ctx.SetContentType(contract.JSONMediaType)
		ctx.SetBody(contract.AppendPersisted(make([]byte, 0, 32), n))
	}
}
