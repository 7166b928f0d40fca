package contract

import (
	"bytes"
	"strconv"
	"time"
)

// DefaultMaxBatchEvents is the most events one front-end request may carry unless configured otherwise.
const DefaultMaxBatchEvents = 1000

// RequestReader turns front-end request bodies into normalised events: it splits batches (JSON array
// or NDJSON), reads and validates each event and normalises it. All or nothing: one invalid event
// rejects the request, so nothing of it is forwarded.
type RequestReader struct {
	// MaxBatchEvents is the most events a request may hold; more is 413.
	MaxBatchEvents int
}

// Read appends the body's events to events, each stamped received at receivedAt (UTC), or returns the
// problem that rejects the whole request.
func (rr RequestReader) Read(body []byte, format Format, receivedAt time.Time, events []Event) ([]Event, *Problem) {
	body = trimBody(body)
	if len(body) == 0 {
		return events, newProblem(EmptyBody, "The body is empty.", "")
	}
	if format == NDJSON {
		return rr.readNDJSON(body, receivedAt, events)
	}
	if body[0] != '[' {
		return readOne(body, WholeBody(), receivedAt, events)
	}
	return rr.readArray(body, receivedAt, events)
}

// readArray reads a JSON array batch. The .NET services first read the whole array (so a JSON error
// anywhere wins), then check the count, then validate event by event; this reads once and reports in
// that same order.
func (rr RequestReader) readArray(body []byte, receivedAt time.Time, events []Event) ([]Event, *Problem) {
	r := jsonReader{buf: body}
	_ = r.enter() // depth 0: cannot fail
	r.skipWS()
	count := 0
	var invalid *Problem // the first validation problem, reported only if the JSON reads
	if r.peek() == ']' {
		r.leave()
	} else {
		for ; ; count++ {
			var d document
			null, err := r.readDocument(&d, incoming)
			if err != nil {
				return events, err.problem(Item(count))
			}
			if invalid == nil && count < rr.MaxBatchEvents {
				e, p := normalize(&d, null, Item(count), receivedAt)
				if p != nil {
					invalid = p
				} else {
					events = append(events, e)
				}
			}
			r.skipWS()
			if c := r.peek(); c == ']' {
				r.leave()
				count++
				break
			} else if c != ',' {
				return events, r.syntax("expected ',' or ']' after an array element").problem(Item(count))
			}
			r.pos++
		}
	}
	if err := r.expectEnd(); err != nil {
		return events, err.problem(WholeBody())
	}
	switch {
	case count == 0:
		return events, newProblem(EmptyBody, "The batch holds no events.", "")
	case count > rr.MaxBatchEvents:
		return events, rr.tooManyEvents()
	case invalid != nil:
		return events, invalid
	}
	return events, nil
}

// readNDJSON reads one event per line; blank lines are skipped and not counted.
func (rr RequestReader) readNDJSON(body []byte, receivedAt time.Time, events []Event) ([]Event, *Problem) {
	index := 0
	for rest := body; len(rest) > 0; {
		line := rest
		if nl := bytes.IndexByte(rest, '\n'); nl >= 0 {
			line, rest = rest[:nl], rest[nl+1:]
		} else {
			rest = nil
		}
		if line = trimBody(line); len(line) == 0 {
			continue
		}
		if index == rr.MaxBatchEvents {
			return events, rr.tooManyEvents()
		}
		var p *Problem
		if events, p = readOne(line, Item(index), receivedAt, events); p != nil {
			return events, p
		}
		index++
	}
	if index == 0 {
		return events, newProblem(EmptyBody, "The body holds only blank lines.", "")
	}
	return events, nil
}

func readOne(json []byte, loc Location, receivedAt time.Time, events []Event) ([]Event, *Problem) {
	r := jsonReader{buf: json}
	var d document
	null, err := r.readDocument(&d, incoming)
	if err == nil {
		err = r.expectEnd()
	}
	if err != nil {
		return events, err.problem(loc)
	}
	e, p := normalize(&d, null, loc, receivedAt)
	if p != nil {
		return events, p
	}
	return append(events, e), nil
}

func (rr RequestReader) tooManyEvents() *Problem {
	return newProblem(PayloadTooLarge, "A batch may hold at most "+strconv.Itoa(rr.MaxBatchEvents)+" events.", "")
}

// TooLarge is the problem for a body over the byte limit.
func TooLarge(maxBytes int) *Problem {
	return newProblem(PayloadTooLarge, "The body is larger than "+strconv.Itoa(maxBytes)+" bytes.", "")
}

// Unsupported is the problem for a Content-Type the endpoint does not take; accepted names what it takes.
func Unsupported(contentType, accepted string) *Problem {
	return newProblem(UnsupportedMediaType, "Content-Type '"+contentType+"' is not accepted: send "+accepted+".", "")
}

// FrontEndMediaTypes names what POST /ingest/event accepts, for Unsupported.
const FrontEndMediaTypes = JSONMediaType + " or " + NDJSONMediaType + " (UTF-8)"

// NotFoundProblem answers a path no endpoint serves.
func NotFoundProblem() *Problem {
	return newProblem(NotFound, "No endpoint answers this method and path.", "")
}

// MethodNotAllowedProblem answers a route that exists with a method it does not answer; allow is the Allow
// header's value, the methods it does answer.
func MethodNotAllowedProblem(route, method, allow string) *Problem {
	p := newProblem(MethodNotAllowed, route+" does not answer "+method+"; it answers "+allow+".", "")
	p.Allow = allow
	return p
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// trimBody drops a UTF-8 byte order mark and JSON white space at the start, and JSON white space at the end.
func trimBody(b []byte) []byte {
	b = bytes.TrimPrefix(b, bom)
	start := 0
	for start < len(b) && isJSONSpace(b[start]) {
		start++
	}
	end := len(b)
	for end > start && isJSONSpace(b[end-1]) {
		end--
	}
	return b[start:end]
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
