package contract

import (
	"math"
	"strconv"
	"time"
)

// EventType is the kind of an event; on the wire a lower-case string.
type EventType uint8

// The event types of the contract.
const (
	Job EventType = iota
	Metric
	Log
)

// EventTypes lists every type, in the order stats report them.
var EventTypes = [...]EventType{Job, Metric, Log}

var typeNames = [...]string{Job: "job", Metric: "metric", Log: "log"}

func (t EventType) String() string { return typeNames[t] }

// parseType reads a type name in any case (.NET's OrdinalIgnoreCase).
func parseType(s string) (EventType, bool) {
	for _, t := range EventTypes {
		if foldEquals(s, typeNames[t]) {
			return t, true
		}
	}
	return 0, false
}

// Event is a validated, normalised event: what a front-end forwards and a back-end persists. Only the
// members of its type are meaningful.
type Event struct {
	Type       EventType
	Source     string
	Timestamp  time.Time // UTC
	ReceivedAt time.Time // UTC

	// Job.
	JobID          string
	ContainerID    string
	HasContainerID bool
	Status         string

	// Metric.
	Name    string
	Value   float64
	Unit    string
	HasUnit bool

	// Log: Level is one of the canonical lower-case levels.
	Level   string
	Message string
}

// AppendEvents appends the forward body: a JSON array of normalised events, snake_case members in the
// contract's order, absent optional members omitted.
func AppendEvents(dst []byte, events []Event) []byte {
	dst = append(dst, '[')
	for i := range events {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = events[i].AppendJSON(dst)
	}
	return append(dst, ']')
}

// AppendJSON appends the event as one JSON object.
func (e *Event) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"type":"`...)
	dst = append(dst, typeNames[e.Type]...)
	dst = append(dst, `","source":`...)
	dst = AppendString(dst, e.Source)
	dst = append(dst, `,"timestamp":`...)
	dst = AppendTimestamp(dst, e.Timestamp)
	dst = append(dst, `,"received_at":`...)
	dst = AppendTimestamp(dst, e.ReceivedAt)
	switch e.Type {
	case Job:
		dst = append(dst, `,"job_id":`...)
		dst = AppendString(dst, e.JobID)
		if e.HasContainerID {
			dst = append(dst, `,"container_id":`...)
			dst = AppendString(dst, e.ContainerID)
		}
		dst = append(dst, `,"status":`...)
		dst = AppendString(dst, e.Status)
	case Metric:
		dst = append(dst, `,"name":`...)
		dst = AppendString(dst, e.Name)
		dst = append(dst, `,"value":`...)
		dst = AppendFloat(dst, e.Value)
		if e.HasUnit {
			dst = append(dst, `,"unit":`...)
			dst = AppendString(dst, e.Unit)
		}
	case Log:
		dst = append(dst, `,"level":"`...)
		dst = append(dst, e.Level...)
		dst = append(dst, `","message":`...)
		dst = AppendString(dst, e.Message)
	}
	return append(dst, '}')
}

// AppendFloat appends a finite number in the shortest form that reads back to the same float64: plain
// notation for magnitudes from 1e-6 to below 1e21, exponent notation ("1e-7", "1e+21") outside.
func AppendFloat(dst []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// strconv writes a two-digit exponent ("1e-07"); one digit is enough.
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}
