package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"strings"
	"time"
	"unicode/utf8"
)

// Format is how a body holds its events.
type Format int

const (
	// JSON is one event object or a JSON array of them (application/json).
	JSON Format = iota
	// NDJSON is one event object per line (application/x-ndjson).
	NDJSON
)

// ParseContentType accepts application/json and application/x-ndjson, with a charset (if any) of UTF-8.
func ParseContentType(contentType string) (Format, bool) {
	if contentType == "" {
		return JSON, false
	}
	mediaType, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return JSON, false
	}
	if charset, ok := params["charset"]; ok && !strings.EqualFold(charset, "utf-8") && !strings.EqualFold(charset, "utf8") {
		return JSON, false
	}
	switch mediaType {
	case "application/json":
		return JSON, true
	case "application/x-ndjson":
		return NDJSON, true
	}
	return JSON, false
}

// Reader turns a front-end request body into normalised events, all or nothing.
type Reader struct {
	MaxBatchEvents int
}

// Read reads body into events, or returns the problem that rejects the whole request.
func (r Reader) Read(format Format, body []byte, receivedAt time.Time) ([]Event, *Problem) {
	body = trim(body)
	if len(body) == 0 {
		return nil, NewProblem(EmptyBody, "The body is empty.", "")
	}
	if !utf8.Valid(body) {
		return nil, NewProblem(MalformedJSON, "The body is not valid UTF-8.", "")
	}
	receivedAt = receivedAt.UTC()
	if format == NDJSON {
		return r.readLines(body, receivedAt)
	}
	if body[0] != '[' {
		e, problem := readOne(body, WholeBody, receivedAt)
		if problem != nil {
			return nil, problem
		}
		return []Event{e}, nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(body, &raws); err != nil {
		return nil, decodeProblem(err, WholeBody)
	}
	if len(raws) == 0 {
		return nil, NewProblem(EmptyBody, "The batch holds no events.", "")
	}
	if len(raws) > r.MaxBatchEvents {
		return nil, r.tooMany()
	}
	events := make([]Event, 0, len(raws))
	for i, raw := range raws {
		e, problem := readOne(raw, Item(i), receivedAt)
		if problem != nil {
			return nil, problem
		}
		events = append(events, e)
	}
	return events, nil
}

func (r Reader) readLines(body []byte, receivedAt time.Time) ([]Event, *Problem) {
	var events []Event
	for len(body) > 0 {
		line := body
		if newline := bytes.IndexByte(body, '\n'); newline >= 0 {
			line, body = body[:newline], body[newline+1:]
		} else {
			body = nil
		}
		line = trim(line)
		if len(line) == 0 {
			continue
		}
		if len(events) == r.MaxBatchEvents {
			return nil, r.tooMany()
		}
		e, problem := readOne(line, Item(len(events)), receivedAt)
		if problem != nil {
			return nil, problem
		}
		events = append(events, e)
	}
	if len(events) == 0 {
		return nil, NewProblem(EmptyBody, "The body holds only blank lines.", "")
	}
	return events, nil
}

func (r Reader) tooMany() *Problem {
	return NewProblem(PayloadTooLarge, fmt.Sprintf("A batch may hold at most %d events.", r.MaxBatchEvents), "")
}

func readOne(raw []byte, at Location, receivedAt time.Time) (Event, *Problem) {
	if string(trim(raw)) == "null" {
		return Event{}, NewProblem(InvalidField, "An event must be a JSON object.", at.Root())
	}
	var d Document
	if err := json.Unmarshal(raw, &d); err != nil {
		return Event{}, decodeProblem(err, at)
	}
	return Normalize(&d, at, receivedAt)
}

// decodeProblem maps encoding/json's errors onto the contract: syntax errors are malformed JSON, values of
// the wrong type are invalid fields, named by path.
func decodeProblem(err error, at Location) *Problem {
	var syntax *json.SyntaxError
	var wrongType *json.UnmarshalTypeError
	var field *fieldTypeError
	switch {
	case errors.As(err, &syntax):
		return NewProblem(MalformedJSON, fmt.Sprintf("The JSON is not well-formed at byte %d: %v.", syntax.Offset, syntax), "")
	case errors.As(err, &wrongType):
		path := at.Member(wrongType.Field)
		return NewProblem(InvalidField, fmt.Sprintf("The value at %s has the wrong JSON type or format (%s).", path, wrongType.Value), path)
	case errors.As(err, &field):
		return NewProblem(InvalidField, "A value "+field.message+".", at.Root())
	}
	return NewProblem(MalformedJSON, "The JSON could not be read: "+err.Error(), "")
}

// ReadForward reads a back-end request body (normalised events, an array or one object) and re-checks each.
func ReadForward(body []byte) ([]Event, *Problem) {
	body = trim(body)
	if len(body) == 0 {
		return nil, NewProblem(EmptyBody, "The body is empty.", "")
	}
	var raws []json.RawMessage
	single := body[0] != '['
	if single {
		raws = []json.RawMessage{body}
	} else if err := json.Unmarshal(body, &raws); err != nil {
		return nil, decodeProblem(err, WholeBody)
	}
	if len(raws) == 0 {
		return nil, NewProblem(EmptyBody, "The batch holds no events.", "")
	}
	events := make([]Event, 0, len(raws))
	for i, raw := range raws {
		at := Item(i)
		if single {
			at = WholeBody
		}
		var in forwarded
		if string(trim(raw)) == "null" {
			return nil, NewProblem(InvalidField, "An event must be a JSON object.", at.Root())
		}
		if err := json.Unmarshal(raw, &in); err != nil {
			return nil, decodeProblem(err, at)
		}
		e, problem := in.check(at)
		if problem != nil {
			return nil, problem
		}
		events = append(events, e)
	}
	return events, nil
}

// trim drops JSON whitespace and a UTF-8 byte order mark around a document.
func trim(b []byte) []byte {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	return bytes.Trim(b, " \t\r\n")
}
