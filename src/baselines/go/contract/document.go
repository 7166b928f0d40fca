package contract

import (
	"math"
	"strconv"
	"time"
)

// optString is a string member that may be absent; JSON null counts as absent, as in the .NET services.
type optString struct {
	value string
	set   bool
}

type optTime struct {
	value time.Time
	set   bool
}

type optFloat struct {
	value float64
	set   bool
}

// document is one event object as a client or a front-end sent it, before validation: every member is
// optional here and only its JSON type has been checked. Validation decides what is required.
type document struct {
	data       optString // classic payload: the inner document
	typ        optString
	source     optString
	timestamp  optTime
	receivedAt optTime // forwarded events only
	jobID      optString
	container  optString
	status     optString
	name       optString
	value      optFloat
	unit       optString
	level      optString
	message    optString
}

// schema says which members a document may carry: an incoming event has "data" (the classic payload),
// a forwarded one has "received_at". Members outside the schema are ignored like any unknown member.
type schema uint8

const (
	incoming schema = iota
	forwarded
)

// readDocument reads the event object at the current position into doc. It reports a JSON null (no
// object) with null = true; any other non-object value is invalid-field at the event's root.
func (r *jsonReader) readDocument(doc *document, s schema) (null bool, err *readError) {
	r.skipWS()
	switch r.peek() {
	case '{':
	case 'n':
		return true, r.scanLiteral("null")
	default:
		return false, r.wrongType("an event object")
	}
	if err := r.enter(); err != nil {
		return false, err
	}
	r.skipWS()
	if r.peek() == '}' {
		r.leave()
		return false, nil
	}
	var name []byte
	for {
		if r.peek() != '"' {
			err := r.syntax("expected a member name")
			if name != nil {
				err = inMember(err, name) // after a comma: name the member before it
			}
			return false, err
		}
		start, end, escaped, err := r.scanString()
		if err != nil {
			return false, err
		}
		name = r.buf[start:end]
		if escaped {
			// Escaped names are rare; unescape them so "job\u005fid" still matches job_id.
			name, _ = appendUnescaped(nil, name)
		}
		r.skipWS()
		if r.peek() != ':' {
			return false, r.syntax("expected ':' after a member name")
		}
		r.pos++
		r.skipWS()
		if err := r.readMember(doc, name, s); err != nil {
			return false, inMember(err, name)
		}
		r.skipWS()
		switch r.peek() {
		case ',':
			r.pos++
			r.skipWS()
		case '}':
			r.leave()
			return false, nil
		default:
			return false, inMember(r.syntax("expected ',' or '}' after a member"), name)
		}
	}
}

func inMember(err *readError, name []byte) *readError {
	err.member, err.hasMember = string(name), true
	return err
}

// readMember reads one member's value: into doc when the schema knows it, otherwise only checked.
// Member names are case-sensitive; a repeated member overwrites the earlier one.
func (r *jsonReader) readMember(doc *document, name []byte, s schema) *readError {
	switch string(name) {
	case "type":
		return r.readString(&doc.typ)
	case "source":
		return r.readString(&doc.source)
	case "timestamp":
		return r.readTime(&doc.timestamp)
	case "job_id":
		return r.readString(&doc.jobID)
	case "container_id":
		return r.readString(&doc.container)
	case "status":
		return r.readString(&doc.status)
	case "name":
		return r.readString(&doc.name)
	case "value":
		return r.readFloat(&doc.value)
	case "unit":
		return r.readString(&doc.unit)
	case "level":
		return r.readString(&doc.level)
	case "message":
		return r.readString(&doc.message)
	case "data":
		if s == incoming {
			return r.readString(&doc.data)
		}
	case "received_at":
		if s == forwarded {
			return r.readTime(&doc.receivedAt)
		}
	}
	return r.skipValue()
}

func (r *jsonReader) readString(dst *optString) *readError {
	switch r.peek() {
	case '"':
		at := r.pos
		start, end, escaped, err := r.scanString()
		if err != nil {
			return err
		}
		value, ok := r.stringValue(start, end, escaped)
		if !ok {
			return r.fail(InvalidField, at, "the string is not valid UTF-8 or holds a lone surrogate")
		}
		*dst = optString{value, true}
		return nil
	case 'n':
		*dst = optString{}
		return r.scanLiteral("null")
	}
	return r.wrongType("a string")
}

func (r *jsonReader) readTime(dst *optTime) *readError {
	switch r.peek() {
	case '"':
		at := r.pos
		var text optString
		if err := r.readString(&text); err != nil {
			return err
		}
		t, ok := ParseTimestamp(text.value)
		if !ok {
			return r.fail(InvalidField, at, "expected an RFC 3339 date-time with offset")
		}
		*dst = optTime{t, true}
		return nil
	case 'n':
		*dst = optTime{}
		return r.scanLiteral("null")
	}
	return r.wrongType("an RFC 3339 date-time string")
}

func (r *jsonReader) readFloat(dst *optFloat) *readError {
	switch c := r.peek(); {
	case c == '-' || (c >= '0' && c <= '9'):
		start, end, err := r.scanNumber()
		if err != nil {
			return err
		}
		v, _ := strconv.ParseFloat(string(r.buf[start:end]), 64)
		if math.IsInf(v, 0) {
			return r.fail(InvalidField, start, "the number is out of range")
		}
		*dst = optFloat{v, true}
		return nil
	case c == 'n':
		*dst = optFloat{}
		return r.scanLiteral("null")
	}
	return r.wrongType("a number")
}
