package stdhttp

import (
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"

	"ingest/contract"
	"ingest/service"
)

var htmlType = []string{"text/html; charset=utf-8"}

// counters are what the status page shows that net/http does not count for us: requests answered and errors by
// status (both roles), events accepted by type and back-end calls by outcome (front-end). The back-end's events
// by type are its sink's own counts.
type counters struct {
	requests   atomic.Int64
	accepted   [len(contract.EventTypes)]atomic.Int64
	forwardsOK atomic.Int64
	mu         sync.Mutex
	errors     map[string]int64 // by status (4xx, 5xx): rare, so under the lock
	failures   map[string]int64 // back-end calls by outcome other than ok
}

func newCounters() *counters {
	return &counters{errors: map[string]int64{}, failures: map[string]int64{}}
}

// answered counts one request, by the status its answer carried.
func (c *counters) answered(status int) {
	c.requests.Add(1)
	if status >= 400 {
		c.mu.Lock()
		c.errors[strconv.Itoa(status)]++
		c.mu.Unlock()
	}
}

// forwarded counts one back-end call by outcome, named as the .NET front-end's ingest.forwards outcomes.
func (c *counters) forwarded(p *contract.Problem) {
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

func (c *counters) acceptedEvents(events []contract.Event) {
	for _, e := range events {
		c.accepted[e.Type].Add(1)
	}
}

// addTo appends requests and errors.<status> to p.
func (c *counters) addTo(p *service.StatusPage) {
	p.Count("requests", c.requests.Load())
	c.mu.Lock()
	defer c.mu.Unlock()
	p.CountSorted("errors.", c.errors)
}

// recorder notes the status of an answer for the counters. One per request (it escapes to the heap with the
// interface): the price of counting answers in net/http, which has no hook for it.
type recorder struct {
	http.ResponseWriter
	status int
}

func (r *recorder) WriteHeader(status int) {
	r.status = status
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

func (r *recorder) code() int {
	if r.status == 0 {
		return http.StatusOK
	}
	return r.status
}

// recentEvents is how many of the last events the back-end's page lists, as the .NET default (Sinks:StatusPageEvents).
const recentEvents = 20

// recentBodies keeps copies of the last forward bodies in reused slots (no allocation once warm, one copy and a
// short lock per request); they are read into events only when the page is asked for. A body larger than
// pooledBodyMax is not kept, so one huge batch does not pin its size.
type recentBodies struct {
	mu    sync.Mutex
	slots [recentEvents][]byte
	next  int
	count int
}

func (r *recentBodies) keep(body []byte) {
	if len(body) > pooledBodyMax {
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

// events are the last recentEvents events, newest first.
func (r *recentBodies) events() []contract.Event {
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
		for i := len(events) - 1; i >= 0 && len(newest) < recentEvents; i-- {
			newest = append(newest, events[i])
		}
	}
	return newest
}

// writePage renders p (GET and HEAD only).
func writePage(w http.ResponseWriter, r *http.Request, route string, p *service.StatusPage) {
	if !allowed(w, r, route, service.ReadAllow) {
		return
	}
	body, err := p.Render()
	if err != nil {
		writeProblem(w, &contract.Problem{Kind: contract.BackEndFailed, Detail: "The status page did not render: " + err.Error()})
		return
	}
	write(w, http.StatusOK, htmlType, body)
}

func isPage(path string) bool { return path == service.RootPath || path == service.StatusPath }
