package server

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"ingest"
)

// ServerName is the Server header of the net/http services.
const ServerName = "go-net-http"

// NewFrontEnd is the front-end: POST /ingest/event and the reference endpoints.
func NewFrontEnd(cfg Config) http.Handler {
	reader := ingest.Reader{MaxBatchEvents: cfg.MaxBatchEvents}
	forwarder := NewForwarder(cfg)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Server", ServerName)
		switch {
		case r.Method == http.MethodPost && r.URL.Path == PathEvent:
			format, ok := ingest.ParseContentType(r.Header.Get("Content-Type"))
			if !ok {
				writeProblem(w, UnsupportedMediaType(r.Header.Get("Content-Type"), true))
				return
			}
			body, problem := readBody(w, r, cfg.MaxBodyBytes)
			if problem != nil {
				writeProblem(w, problem)
				return
			}
			events, problem := reader.Read(format, body, time.Now())
			if problem == nil {
				problem = forwarder.Forward(r.Context(), events)
			}
			if problem != nil {
				writeProblem(w, problem)
				return
			}
			writeBody(w, http.StatusOK, jsonType, mustJSON(Accepted{Accepted: len(events)}))
		case r.Method == http.MethodGet && r.URL.Path == PathJSON:
			writeBody(w, http.StatusOK, jsonType, mustJSON(&Hello{Message: "Hello, World!"}))
		default:
			answerFixedOrNotFound(w, r, true)
		}
	})
}

// NewBackEnd is the back-end: POST /ingest/data into a counting sink, GET /ingest/stats.
func NewBackEnd(cfg Config) (http.Handler, *ingest.Counter) {
	counter := &ingest.Counter{}
	dropper := &ingest.Dropper{OneIn: cfg.DropOneIn}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Server", ServerName)
		switch {
		case r.Method == http.MethodPost && r.URL.Path == PathData:
			if format, ok := ingest.ParseContentType(r.Header.Get("Content-Type")); !ok || format != ingest.JSON {
				writeProblem(w, UnsupportedMediaType(r.Header.Get("Content-Type"), false))
				return
			}
			body, problem := readBody(w, r, cfg.MaxBodyBytes)
			if problem != nil {
				writeProblem(w, problem)
				return
			}
			events, problem := ingest.ReadForward(body)
			if problem != nil {
				writeProblem(w, problem)
				return
			}
			if cfg.Delay > 0 {
				select {
				case <-time.After(cfg.Delay):
				case <-r.Context().Done():
					return // The caller gave up: nothing is persisted.
				}
			}
			counter.Record(dropper.Filter(events))
			writeBody(w, http.StatusOK, jsonType, mustJSON(Persisted{Persisted: len(events)}))
		case r.Method == http.MethodGet && r.URL.Path == PathStats:
			writeBody(w, http.StatusOK, jsonType, mustJSON(counter.Snapshot()))
		default:
			answerFixedOrNotFound(w, r, false)
		}
	}), counter
}

func answerFixedOrNotFound(w http.ResponseWriter, r *http.Request, frontEnd bool) {
	if r.Method == http.MethodGet {
		if text, ok := FixedText(r.URL.Path, frontEnd); ok {
			writeBody(w, http.StatusOK, textType, text)
			return
		}
	}
	writeProblem(w, NotFound())
}

// readBody reads the whole body, refusing more than max bytes (up front when Content-Length says so).
func readBody(w http.ResponseWriter, r *http.Request, max int) ([]byte, *ingest.Problem) {
	if r.ContentLength > int64(max) {
		return nil, TooLarge(max)
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, int64(max)))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return nil, TooLarge(max)
	case err != nil:
		return nil, ingest.NewProblem(ingest.MalformedJSON, "The request body could not be read: "+err.Error(), "")
	}
	return body, nil
}

func writeProblem(w http.ResponseWriter, p *ingest.Problem) {
	if p.Status == http.StatusRequestEntityTooLarge {
		// The rest of the body was never read: this connection cannot carry another request.
		w.Header().Set("Connection", "close")
	}
	writeBody(w, p.Status, ingest.ProblemMediaType, mustJSON(p))
}

func writeBody(w http.ResponseWriter, status int, contentType string, body []byte) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
