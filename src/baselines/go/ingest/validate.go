package ingest

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"
)

const (
	// MaxIdentifierLength bounds source, ids, names and units (in UTF-16 code units, as .NET counts).
	MaxIdentifierLength = 256
	// MaxTextLength bounds status, message and the classic inner document.
	MaxTextLength = 4096
	// ClassicSource is the source every classic payload is attributed to.
	ClassicSource = "classic"
)

var levels = []string{"trace", "debug", "info", "warn", "error", "fatal"}

// Normalize validates one incoming event and turns it into a normalised Event.
func Normalize(d *Document, at Location, receivedAt time.Time) (Event, *Problem) {
	if d.Data != nil {
		return normalizeClassic(*d.Data, at, receivedAt)
	}
	if d.Type == nil {
		return Event{}, NewProblem(MissingField, "Every event needs 'type' (job, metric or log), or 'data' for the classic payload.", at.Member("type"))
	}
	eventType, ok := parseType(*d.Type)
	if !ok {
		return Event{}, NewProblem(UnknownType, "'type' must be job, metric or log.", at.Member("type"))
	}
	if p := checkText(d.Source, "source", MaxIdentifierLength, at, true, "every event"); p != nil {
		return Event{}, p
	}
	if d.Timestamp == nil {
		return Event{}, missing("timestamp", "every event", at)
	}
	timestamp, ok := ParseTimestamp(*d.Timestamp)
	if !ok {
		return Event{}, NewProblem(InvalidField, "The value at "+at.Member("timestamp")+" must be an ISO 8601 date-time string.", at.Member("timestamp"))
	}
	e := Event{Type: eventType, Source: strings.TrimSpace(*d.Source), Timestamp: Time{timestamp}, ReceivedAt: Time{receivedAt}}
	var problem *Problem
	switch eventType {
	case TypeJob:
		problem = checkJob(d.JobID, d.ContainerID, d.Status, at)
		e.JobID, e.ContainerID, e.Status = d.JobID, d.ContainerID, d.Status
	case TypeMetric:
		problem = checkMetric(d.Name, d.Value, d.Unit, at)
		e.Name, e.Value, e.Unit = d.Name, d.Value, d.Unit
	default:
		var level string
		level, problem = checkLog(d.Level, d.Message, at)
		e.Level, e.Message = &level, d.Message
	}
	if problem != nil {
		return Event{}, problem
	}
	return e, nil
}

func normalizeClassic(data string, at Location, receivedAt time.Time) (Event, *Problem) {
	inner := at
	inner.Inner = true
	if utf16Len(data) > MaxTextLength {
		return Event{}, NewProblem(InvalidField, fmt.Sprintf("The inner document is longer than %d characters.", MaxTextLength), inner.Root())
	}
	strict := data
	if NeedsRewrite(data) {
		var ok bool
		if strict, ok = ToStrict(data); !ok {
			return Event{}, NewProblem(MalformedJSON, "A string in the inner document is not terminated.", inner.Root())
		}
	}
	if string(trim([]byte(strict))) == "null" {
		return Event{}, NewProblem(InvalidField, "The inner document must be a JSON object.", inner.Root())
	}
	var d Document
	if err := json.Unmarshal([]byte(strict), &d); err != nil {
		return Event{}, decodeProblem(err, inner)
	}
	if p := checkJob(d.JobID, d.ContainerID, d.Status, inner); p != nil {
		return Event{}, p
	}
	return Event{
		Type:        TypeJob,
		Source:      ClassicSource,
		Timestamp:   Time{receivedAt},
		ReceivedAt:  Time{receivedAt},
		JobID:       d.JobID,
		ContainerID: d.ContainerID,
		Status:      d.Status,
	}, nil
}

func checkJob(jobID, containerID, status *string, at Location) *Problem {
	if p := checkText(jobID, "job_id", MaxIdentifierLength, at, true, "a job event"); p != nil {
		return p
	}
	if p := checkText(status, "status", MaxTextLength, at, false, "a job event"); p != nil {
		return p
	}
	return checkOptional(containerID, "container_id", MaxIdentifierLength, at)
}

func checkMetric(name *string, value *float64, unit *string, at Location) *Problem {
	if p := checkText(name, "name", MaxIdentifierLength, at, true, "a metric event"); p != nil {
		return p
	}
	if value == nil {
		return missing("value", "a metric event", at)
	}
	if math.IsNaN(*value) || math.IsInf(*value, 0) {
		return NewProblem(InvalidField, "'value' must be a finite number.", at.Member("value"))
	}
	return checkOptional(unit, "unit", MaxIdentifierLength, at)
}

func checkLog(level, message *string, at Location) (string, *Problem) {
	if level == nil {
		return "", missing("level", "a log event", at)
	}
	canonical := ""
	for _, known := range levels {
		if strings.EqualFold(*level, known) {
			canonical = known
			break
		}
	}
	if canonical == "" {
		return "", NewProblem(InvalidField, "'level' must be one of trace, debug, info, warn, error, fatal.", at.Member("level"))
	}
	return canonical, checkText(message, "message", MaxTextLength, at, false, "a log event")
}

func checkText(value *string, name string, maxLength int, at Location, nonEmpty bool, requiredFor string) *Problem {
	if value == nil {
		return missing(name, requiredFor, at)
	}
	if nonEmpty && strings.TrimSpace(*value) == "" {
		return NewProblem(InvalidField, fmt.Sprintf("'%s' must not be empty.", name), at.Member(name))
	}
	if utf16Len(*value) > maxLength {
		return NewProblem(InvalidField, fmt.Sprintf("'%s' is longer than %d characters.", name, maxLength), at.Member(name))
	}
	return nil
}

func checkOptional(value *string, name string, maxLength int, at Location) *Problem {
	if value != nil && utf16Len(*value) > maxLength {
		return NewProblem(InvalidField, fmt.Sprintf("'%s' is longer than %d characters.", name, maxLength), at.Member(name))
	}
	return nil
}

func missing(name, requiredFor string, at Location) *Problem {
	return NewProblem(MissingField, fmt.Sprintf("'%s' is required for %s.", name, requiredFor), at.Member(name))
}

func parseType(value string) (string, bool) {
	for _, t := range []string{TypeJob, TypeMetric, TypeLog} {
		if strings.EqualFold(value, t) {
			return t, true
		}
	}
	return "", false
}

// utf16Len counts UTF-16 code units, the unit of .NET's string lengths, so limits agree across stacks.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// forwarded is a normalised event as the back-end reads it: everything optional until checked.
type forwarded struct {
	Type        *string  `json:"type"`
	Source      *string  `json:"source"`
	Timestamp   Time     `json:"timestamp"`
	ReceivedAt  Time     `json:"received_at"`
	JobID       *string  `json:"job_id"`
	ContainerID *string  `json:"container_id"`
	Status      *string  `json:"status"`
	Name        *string  `json:"name"`
	Value       *float64 `json:"value"`
	Unit        *string  `json:"unit"`
	Level       *string  `json:"level"`
	Message     *string  `json:"message"`
}

func (f *forwarded) check(at Location) (Event, *Problem) {
	if f.Type == nil {
		return Event{}, missing("type", "every event", at)
	}
	eventType, ok := parseType(*f.Type)
	if !ok {
		return Event{}, NewProblem(InvalidField, "'type' must be job, metric or log.", at.Member("type"))
	}
	if p := checkText(f.Source, "source", MaxIdentifierLength, at, true, "every event"); p != nil {
		return Event{}, p
	}
	if f.Timestamp.IsZero() {
		return Event{}, missing("timestamp", "every event", at)
	}
	var problem *Problem
	switch eventType {
	case TypeJob:
		problem = checkJob(f.JobID, f.ContainerID, f.Status, at)
	case TypeMetric:
		problem = checkMetric(f.Name, f.Value, f.Unit, at)
	default:
		_, problem = checkLog(f.Level, f.Message, at)
	}
	if problem != nil {
		return Event{}, problem
	}
	return Event{
		Type: eventType, Source: *f.Source, Timestamp: f.Timestamp, ReceivedAt: f.ReceivedAt,
		JobID: f.JobID, ContainerID: f.ContainerID, Status: f.Status,
		Name: f.Name, Value: f.Value, Unit: f.Unit, Level: f.Level, Message: f.Message,
	}, nil
}
