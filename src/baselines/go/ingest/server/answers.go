package server

import (
	"encoding/json"
	"strconv"
	"strings"

	"ingest"
)

// Fixed answers and paths of the contract, shared by both HTTP stacks.
const (
	PathEvent     = "/ingest/event"
	PathData      = "/ingest/data"
	PathStats     = "/ingest/stats"
	PathPlaintext = "/plaintext"
	PathJSON      = "/json"
	PathHealth    = "/healthz"
	valuesPrefix  = "/api/values/"
	jsonType      = "application/json"
	textType      = "text/plain"
)

var (
	helloText   = []byte("Hello, World!")
	valueText   = []byte("value")
	healthyText = []byte("Healthy")
)

// Hello is the /json body; a new one is serialized per request, as TechEmpower's rules ask.
type Hello struct {
	Message string `json:"message"`
}

// Accepted is the front-end's answer.
type Accepted struct {
	Accepted int `json:"accepted"`
}

// Persisted is the back-end's answer.
type Persisted struct {
	Persisted int `json:"persisted"`
}

// FixedText returns the text/plain answer of a GET path of the front-end, if it is one.
func FixedText(path string, frontEnd bool) ([]byte, bool) {
	switch {
	case path == PathHealth:
		return healthyText, true
	case !frontEnd:
		return nil, false
	case path == PathPlaintext:
		return helloText, true
	case strings.HasPrefix(path, valuesPrefix):
		// /api/values/{id:int}, as the .NET route constraint.
		if _, err := strconv.ParseInt(path[len(valuesPrefix):], 10, 32); err == nil {
			return valueText, true
		}
	}
	return nil, false
}

// NotFound is the answer to any other method and path.
func NotFound() *ingest.Problem {
	return ingest.NewProblem(ingest.NotFound, "No endpoint answers this method and path.", "")
}

// UnsupportedMediaType is the answer to a body in another format.
func UnsupportedMediaType(contentType string, ndjson bool) *ingest.Problem {
	accepted := jsonType
	if ndjson {
		accepted += " or application/x-ndjson"
	}
	return ingest.NewProblem(ingest.UnsupportedMediaType, "Content-Type '"+contentType+"' is not accepted: send "+accepted+" (UTF-8).", "")
}

// TooLarge is the answer to a body over the limit.
func TooLarge(max int) *ingest.Problem {
	return ingest.NewProblem(ingest.PayloadTooLarge, "The body is larger than "+strconv.Itoa(max)+" bytes.", "")
}

// mustJSON marshals values that cannot fail to marshal (the contract's own types).
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
