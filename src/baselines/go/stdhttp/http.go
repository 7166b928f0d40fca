// Package stdhttp is the Go flow on the standard library's net/http: the front-end (with a pooled or a
// per-request client) and the back-end. Everything the contract says is done by package contract;
// this package is the HTTP around it.
package stdhttp

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"ingest/contract"
	"ingest/service"
)

// ServerName is the Server header of every answer (net/http sets Date itself).
const ServerName = "go-net-http"

// Header values are shared, never mutated: assigning them saves a slice per answer.
var (
	serverHeader  = []string{ServerName}
	jsonType      = []string{contract.JSONMediaType}
	textType      = []string{contract.TextMediaType}
	problemType   = []string{contract.ProblemMediaType}
	closeHeader   = []string{"close"}
	helloText     = []byte(service.HelloText)
	healthyText   = []byte(service.HealthyText)
	valueText     = []byte(service.ValueText)
	keepAliveIdle = 130 * time.Second // Kestrel's KeepAliveTimeout, so idle connections live as long on both
)

// idempotencyKeyHeader is contract.IdempotencyKeyHeader as net/http keys its header map (canonical form).
var idempotencyKeyHeader = http.CanonicalHeaderKey(contract.IdempotencyKeyHeader)

// NewServer wraps a front-end or back-end handler in the http.Server both roles use.
func NewServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second, // Kestrel's RequestHeadersTimeout
		IdleTimeout:       keepAliveIdle,
	}
}

func write(w http.ResponseWriter, status int, contentType []string, body []byte) {
	h := w.Header()
	h["Content-Type"] = contentType
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	_, _ = w.Write(body) // a client that went away is not our error
}

func writeProblem(w http.ResponseWriter, p *contract.Problem) {
	if p.Kind == contract.PayloadTooLarge {
		// The rest of the body was never read: the connection cannot carry another request.
		w.Header()["Connection"] = closeHeader
	}
	if p.RetryAfter > 0 {
		w.Header()["Retry-After"] = []string{strconv.Itoa(p.RetryAfter)}
	}
	if p.Allow != "" {
		w.Header()["Allow"] = []string{p.Allow}
	}
	write(w, p.Status(), problemType, p.AppendJSON(make([]byte, 0, 256)))
}

// allowed answers 405 unless route, whose Allow value is allow, answers the request's method; false when it
// answered. (net/http drops the body of a HEAD answer and keeps its Content-Length.)
func allowed(w http.ResponseWriter, r *http.Request, route, allow string) bool {
	if service.Answers(allow, r.Method) {
		return true
	}
	writeProblem(w, contract.MethodNotAllowedProblem(route, r.Method, allow))
	return false
}

// reference answers the reference endpoints both roles share; false when the path is none of them.
func reference(w http.ResponseWriter, r *http.Request, frontEnd bool) bool {
	var body []byte
	contentType := textType
	route := r.URL.Path
	switch path := r.URL.Path; {
	case path == service.HealthPath:
		body = healthyText
	case !frontEnd:
		return false
	case path == service.PlaintextPath:
		body = helloText
	case path == service.JSONPath:
		// A new object serialized per request, as TechEmpower's JSON test demands.
		var err error
		if body, err = json.Marshal(&service.Hello{Message: service.HelloText}); err != nil {
			panic(err) // cannot happen for this type
		}
		contentType = jsonType
	case strings.HasPrefix(path, service.ValuesPrefix) && service.IsInt32(path[len(service.ValuesPrefix):]):
		body = valueText
		route = service.ValuesRoute
	default:
		return false
	}
	if allowed(w, r, route, service.ReadAllow) {
		write(w, http.StatusOK, contentType, body)
	}
	return true
}

// Request bodies are read into pooled buffers; the events own copies of their strings, so a buffer goes
// back as soon as the body is parsed. Buffers that grew past pooledBodyMax are left to the GC, so a few
// large requests do not pin memory.
const pooledBodyMax = 64 << 10

var bodies = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// readBody reads the whole request body into a pooled buffer, stopping as soon as it exceeds max
// bytes; the caller returns the buffer with releaseBody.
func readBody(r *http.Request, max int) (buf *[]byte, body []byte, p *contract.Problem) {
	if r.ContentLength > int64(max) {
		return nil, nil, contract.TooLarge(max)
	}
	buf = bodies.Get().(*[]byte)
	b := (*buf)[:0]
	if r.ContentLength > int64(cap(b)) {
		b = make([]byte, 0, r.ContentLength)
	}
	for {
		if len(b) == cap(b) {
			if r.ContentLength >= 0 && len(b) == int(r.ContentLength) {
				break // net/http never lets a body run past its Content-Length
			}
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Body.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if len(b) > max {
			*buf = b
			releaseBody(buf)
			return nil, nil, contract.TooLarge(max)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			*buf = b
			releaseBody(buf)
			return nil, nil, unreadable(err)
		}
	}
	*buf = b
	return buf, b, nil
}

func releaseBody(buf *[]byte) {
	if buf != nil && cap(*buf) <= pooledBodyMax {
		bodies.Put(buf)
	}
}

// unreadable is the answer to a body that broke off or had bad chunking, as the .NET services give it.
func unreadable(err error) *contract.Problem {
	return &contract.Problem{Kind: contract.MalformedJSON, Detail: "The request body could not be read: " + err.Error() + "."}
}
