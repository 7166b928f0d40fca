package service

import (
	"strconv"
	"sync"
	"sync/atomic"

	"ingest/contract"
)

// Counters are what a status page shows that neither HTTP stack counts for us: requests answered and errors by status
// (both roles), events accepted by type and back-end calls by outcome (front-end). The back-end's events by type are
// its sink's own counts. Both stacks count the same things, so their pages (and their costs) are alike.
type Counters struct {
	requests   atomic.Int64
	accepted   [len(contract.EventTypes)]atomic.Int64
	forwardsOK atomic.Int64
	mu         sync.Mutex
	errors     map[string]int64 // by status (4xx, 5xx): rare, so under the lock
	failures   map[string]int64 // back-end calls by outcome other than ok
}

// NewCounters makes counters at zero.
func NewCounters() *Counters {
	return &Counters{errors: map[string]int64{}, failures: map[string]int64{}}
}

// Answered counts one request, by the status its answer carried.
func (c *Counters) Answered(status int) {
	c.requests.Add(1)
	if status >= 400 {
		c.mu.Lock()
		c.errors[strconv.Itoa(status)]++
		c.mu.Unlock()
	}
}

// Forwarded counts one back-end call by its outcome: nil is ok.
func (c *Counters) Forwarded(p *contract.Problem) {
	if p == nil {
		c.forwardsOK.Add(1)
		return
	}
	outcome := "backend-failed"
	switch p.Kind {
	case contract.BackEndTimeout:
		outcome = "backend-timeout"
	case contract.Overloaded:
		outcome = "backend-unavailable"
	}
	c.mu.Lock()
	c.failures[outcome]++
	c.mu.Unlock()
}

// AcceptedEvents counts a front-end's acknowledged events by type.
func (c *Counters) AcceptedEvents(events []contract.Event) {
	for _, e := range events {
		c.accepted[e.Type].Add(1)
	}
}

// addTo appends requests and errors.<status>.
func (c *Counters) addTo(p *StatusPage) {
	p.Count("requests", c.requests.Load())
	c.mu.Lock()
	defer c.mu.Unlock()
	p.CountSorted("errors.", c.errors)
}

// FrontEndPage is a front-end's status page now: blank's title and configuration, requests, errors, events accepted
// by type and forwards by outcome.
func (c *Counters) FrontEndPage(blank *StatusPage) *StatusPage {
	p := blank.Page()
	c.addTo(p)
	p.CountEvents(contract.Stats{Job: c.accepted[contract.Job].Load(), Metric: c.accepted[contract.Metric].Load(), Log: c.accepted[contract.Log].Load()})
	outcomes := map[string]int64{}
	if ok := c.forwardsOK.Load(); ok > 0 {
		outcomes["ok"] = ok
	}
	c.mu.Lock()
	for k, v := range c.failures {
		outcomes[k] = v
	}
	c.mu.Unlock()
	p.CountSorted("forwards.", outcomes)
	return p
}

// RecentEvents is how many of the last events the back-end's page lists.
const RecentEvents = 20

// keptBodyMax is the largest body whose events the page may list; larger ones are not kept.
const keptBodyMax = 64 << 10

// RecentBodies keeps the last RecentEvents request bodies the back-end persisted, copied into slots reused in a ring
// (no allocation once a slot is as large as the bodies), so the page can list the last events. Decoding them waits for
// a page to be asked for.
type RecentBodies struct {
	mu    sync.Mutex
	slots [RecentEvents][]byte
	next  int
	count int
}

// Keep copies body into the next slot.
func (r *RecentBodies) Keep(body []byte) {
	if len(body) > keptBodyMax {
		return
	}
	r.mu.Lock()
	r.slots[r.next] = append(r.slots[r.next][:0], body...)
	r.next = (r.next + 1) % len(r.slots)
	if r.count < len(r.slots) {
		r.count++
	}
	r.mu.Unlock()
}

// Events are the last RecentEvents events kept, newest first.
func (r *RecentBodies) Events() []contract.Event {
	r.mu.Lock()
	bodies := make([][]byte, 0, r.count)
	for i := 1; i <= r.count; i++ {
		slot := r.slots[(r.next-i+len(r.slots))%len(r.slots)]
		bodies = append(bodies, append([]byte(nil), slot...))
	}
	r.mu.Unlock()
	var newest []contract.Event
	for _, body := range bodies {
		events := contract.ForwardedEvents(body)
		for i := len(events) - 1; i >= 0 && len(newest) < RecentEvents; i-- {
			newest = append(newest, events[i])
		}
	}
	return newest
}
