package service

import (
	"context"
	"sync/atomic"
	"time"

	"ingest/contract"
)

// Sink is the back-end's store: it keeps nothing and counts what it persisted, per type. It is the one
// source of GET /ingest/stats, so the lab can compare it with what clients saw acknowledged.
type Sink struct {
	counts    [len(contract.EventTypes)]atomic.Int64
	seen      atomic.Int64 // running event number, for the drop fault
	dropOneIn int64
	delay     time.Duration
}

// NewSink makes a sink with the back-end's fault switches: drop every dropOneIn-th event (0: none) and
// wait delay before persisting each request.
func NewSink(dropOneIn int, delay time.Duration) *Sink {
	return &Sink{dropOneIn: int64(dropOneIn), delay: delay}
}

// Persist records one request's events, given by their types in order. It returns only once they are
// counted, or with ctx's error if the caller went away during the delay (then nothing is counted).
func (s *Sink) Persist(ctx context.Context, types []contract.EventType) error {
	if s.delay > 0 {
		timer := time.NewTimer(s.delay)
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		}
	}
	var first int64
	if s.dropOneIn > 0 {
		first = s.seen.Add(int64(len(types))) - int64(len(types))
	}
	var add [len(contract.EventTypes)]int64
	for i, t := range types {
		if s.dropOneIn > 0 && (first+int64(i)+1)%s.dropOneIn == 0 {
			continue // the fault: acknowledged, never stored
		}
		add[t]++
	}
	for t, n := range add {
		if n > 0 {
			s.counts[t].Add(n)
		}
	}
	return nil
}

// Stats is a snapshot of the counts.
func (s *Sink) Stats() contract.Stats {
	return contract.Stats{
		Job:    s.counts[contract.Job].Load(),
		Metric: s.counts[contract.Metric].Load(),
		Log:    s.counts[contract.Log].Load(),
	}
}
