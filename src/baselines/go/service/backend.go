package service

import (
	"context"

	"ingest/contract"
)

// BackEndCore is the back-end's work without HTTP, shared by the net/http and fasthttp back-ends so they differ only in
// how they read requests and write answers: POST /ingest/data's media type, re-check, persist once per
// Idempotency-Key and the events kept for the page; GET /ingest/stats; the status page.
type BackEndCore struct {
	sink   *Sink
	once   *Idempotency
	blank  *StatusPage // the page without counters: title and configuration, made once
	Counts *Counters
	recent RecentBodies
}

// NewBackEndCore builds the back-end a validated configuration describes.
func NewBackEndCore(c *Config) *BackEndCore {
	return &BackEndCore{
		sink:   NewSink(c.DropOneIn, c.Delay),
		once:   NewIdempotency(IdempotencyCapacity, IdempotencyWindow),
		blank:  NewStatusPage(c),
		Counts: NewCounters(),
	}
}

// CheckContentType is nil when POST /ingest/data takes contentType (JSON), else the 415 to answer.
func CheckContentType[T string | []byte](contentType T) *contract.Problem {
	if format, ok := contract.ContentTypeFormat(contentType); !ok || format != contract.JSON {
		return contract.Unsupported(string(contentType), contract.JSONMediaType)
	}
	return nil
}

// Persist re-checks a forward body (all or nothing) and persists its events once per key (key empty: no key), after
// the sink's injected delay, if any. It returns how many events the answer acknowledges, or the problem to answer, or
// ctx's error when the caller left during the delay: then nothing was persisted and the answer is a bare 503.
func Persist[T string | []byte](ctx context.Context, b *BackEndCore, body []byte, key T) (int, *contract.Problem, error) {
	types, p := contract.ReadForwarded(body, nil)
	if p != nil {
		return 0, p, nil
	}
	err := Once(b.once, key, func() error {
		if err := b.sink.Persist(ctx, types); err != nil {
			return err
		}
		b.recent.Keep(body) // a repeat persists nothing, so the page lists it once
		return nil
	})
	if err != nil {
		return 0, nil, err
	}
	return len(types), nil, nil
}

// Stats are the sink's counts, the answer of GET /ingest/stats.
func (b *BackEndCore) Stats() contract.Stats { return b.sink.Stats() }

// Duplicates counts the forwards acknowledged again for their Idempotency-Key without being persisted again.
func (b *BackEndCore) Duplicates() int64 { return b.once.Duplicates() }

// Page is the back-end's status page now: requests, errors, events by type, what was persisted, the last events.
func (b *BackEndCore) Page() *StatusPage {
	p := b.blank.Page()
	b.Counts.addTo(p)
	stats := b.sink.Stats()
	p.CountEvents(stats)
	if total := stats.Total(); total > 0 {
		p.Count("persisted.null", total) // the peer of the .NET Null sink: counted, nothing kept
	}
	if d := b.once.Duplicates(); d > 0 {
		p.Count("idempotency.duplicates", d)
	}
	p.AddEvents(b.recent.Events())
	return p
}
