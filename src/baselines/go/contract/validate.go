package contract

import (
	"math"
	"strconv"
	"strings"
	"time"
)

const (
	// MaxIdentifierLength bounds identifier-like strings: source, job_id, container_id, name, unit.
	MaxIdentifierLength = 256
	// MaxTextLength bounds free text: status, message and the classic inner document.
	MaxTextLength = 4096
	// ClassicSource is the source every classic payload is attributed to.
	ClassicSource = "classic"
)

// levels are the canonical log levels; a level is normalised to one of these strings.
var levels = [...]string{"trace", "debug", "info", "warn", "error", "fatal"}

// normalize validates one incoming event (null: the document was JSON null) and turns it into a
// normalised event. The checks run in the .NET validator's order, so the same input names the same
// problem.
func normalize(doc *document, null bool, loc Location, receivedAt time.Time) (Event, *Problem) {
	if null {
		return Event{}, newProblem(InvalidField, "An event must be a JSON object.", loc.Root())
	}
	if doc.data.set {
		return normalizeClassic(doc.data.value, loc, receivedAt)
	}
	return normalizeTyped(doc, loc, receivedAt)
}

func normalizeClassic(data string, loc Location, receivedAt time.Time) (Event, *Problem) {
	inner := loc.Inner()
	if longerThan(data, MaxTextLength) {
		return Event{}, newProblem(InvalidField, "The inner document is longer than "+strconv.Itoa(MaxTextLength)+" characters.", inner.Root())
	}

	var strict []byte
	if needsRewrite(data) {
		var ok bool
		if strict, ok = RelaxedToStrict(make([]byte, 0, len(data)+16), data); !ok {
			return Event{}, newProblem(MalformedJSON, "A string in the inner document is not terminated.", inner.Root())
		}
	} else {
		strict = []byte(data)
	}

	r := jsonReader{buf: strict}
	var d document
	null, err := r.readDocument(&d, incoming)
	if err == nil {
		err = r.expectEnd()
	}
	if err != nil {
		return Event{}, err.problem(inner)
	}
	if null {
		return Event{}, newProblem(InvalidField, "The inner document must be a JSON object.", inner.Root())
	}
	if p := checkJob(&d, inner); p != nil {
		return Event{}, p
	}
	return Event{
		Type:           Job,
		Source:         ClassicSource,
		Timestamp:      receivedAt,
		ReceivedAt:     receivedAt,
		JobID:          d.jobID.value,
		ContainerID:    d.container.value,
		HasContainerID: d.container.set,
		Status:         d.status.value,
	}, nil
}

func normalizeTyped(d *document, loc Location, receivedAt time.Time) (Event, *Problem) {
	if !d.typ.set {
		return Event{}, newProblem(MissingField, "Every event needs 'type' (job, metric or log), or 'data' for the classic payload.", loc.Member("type"))
	}
	typ, ok := parseType(d.typ.value)
	if !ok {
		return Event{}, newProblem(UnknownType, "'type' must be job, metric or log.", loc.Member("type"))
	}
	if p := checkCommon(d, loc); p != nil {
		return Event{}, p
	}

	e := Event{
		Type:       typ,
		Source:     trimSpace(d.source.value),
		Timestamp:  d.timestamp.value,
		ReceivedAt: receivedAt,
	}
	switch typ {
	case Job:
		if p := checkJob(d, loc); p != nil {
			return Event{}, p
		}
		e.JobID, e.ContainerID, e.HasContainerID, e.Status = d.jobID.value, d.container.value, d.container.set, d.status.value
	case Metric:
		if p := checkMetric(d, loc); p != nil {
			return Event{}, p
		}
		e.Name, e.Value, e.Unit, e.HasUnit = d.name.value, d.value.value, d.unit.value, d.unit.set
	case Log:
		level, p := checkLog(d, loc)
		if p != nil {
			return Event{}, p
		}
		e.Level, e.Message = level, d.message.value
	}
	return e, nil
}

// checkForwarded re-checks an event a back-end received: the front-end normalised it, but the back-end
// trusts no caller. It returns the event's type.
func checkForwarded(d *document, null bool, loc Location) (EventType, *Problem) {
	if null {
		return 0, newProblem(InvalidField, "An event must be a JSON object.", loc.Root())
	}
	if !d.typ.set {
		return 0, newProblem(MissingField, "'type' is required for every event.", loc.Member("type"))
	}
	typ, ok := parseType(d.typ.value)
	if !ok {
		return 0, newProblem(UnknownType, "The event type is not job, metric or log.", loc.Member("type"))
	}
	if p := checkCommon(d, loc); p != nil {
		return 0, p
	}
	var p *Problem
	switch typ {
	case Job:
		p = checkJob(d, loc)
	case Metric:
		p = checkMetric(d, loc)
	case Log:
		_, p = checkLog(d, loc)
	}
	return typ, p
}

func checkCommon(d *document, loc Location) *Problem {
	if p := checkText(d.source, "source", MaxIdentifierLength, loc, true, "every event"); p != nil {
		return p
	}
	if !d.timestamp.set {
		return missing("timestamp", "every event", loc)
	}
	if d.timestamp.value.IsZero() {
		// The .NET services cannot tell 0001-01-01T00:00:00Z from an absent time: refused alike (docs/contract.md).
		return newProblem(InvalidField, "'timestamp' must be later than 0001-01-01T00:00:00Z.", loc.Member("timestamp"))
	}
	return nil
}

func checkJob(d *document, loc Location) *Problem {
	if p := checkText(d.jobID, "job_id", MaxIdentifierLength, loc, true, "a job event"); p != nil {
		return p
	}
	if p := checkText(d.status, "status", MaxTextLength, loc, false, "a job event"); p != nil {
		return p
	}
	return checkOptional(d.container, "container_id", MaxIdentifierLength, loc)
}

func checkMetric(d *document, loc Location) *Problem {
	if p := checkText(d.name, "name", MaxIdentifierLength, loc, true, "a metric event"); p != nil {
		return p
	}
	if !d.value.set {
		return missing("value", "a metric event", loc)
	}
	if math.IsNaN(d.value.value) || math.IsInf(d.value.value, 0) {
		return newProblem(InvalidField, "'value' must be a finite number.", loc.Member("value"))
	}
	return checkOptional(d.unit, "unit", MaxIdentifierLength, loc)
}

func checkLog(d *document, loc Location) (string, *Problem) {
	if !d.level.set {
		return "", missing("level", "a log event", loc)
	}
	level := ""
	for _, known := range levels {
		if foldEquals(d.level.value, known) {
			level = known
			break
		}
	}
	if level == "" {
		return "", newProblem(InvalidField, "'level' must be one of trace, debug, info, warn, error, fatal.", loc.Member("level"))
	}
	return level, checkText(d.message, "message", MaxTextLength, loc, false, "a log event")
}

func checkText(v optString, name string, max int, loc Location, nonEmpty bool, requiredFor string) *Problem {
	switch {
	case !v.set:
		return missing(name, requiredFor, loc)
	case nonEmpty && isBlank(v.value):
		return newProblem(InvalidField, "'"+name+"' must not be empty.", loc.Member(name))
	}
	return checkOptional(v, name, max, loc)
}

func checkOptional(v optString, name string, max int, loc Location) *Problem {
	switch {
	case !v.set:
		return nil
	case longerThan(v.value, max):
		return tooLong(name, max, loc)
	case strings.IndexByte(v.value, 0) >= 0:
		// As the .NET services: most stores cannot keep a NUL, so it is never acknowledged, escaped or not.
		return newProblem(InvalidField, "'"+name+"' contains a NUL character (U+0000).", loc.Member(name))
	}
	return nil
}

func tooLong(name string, max int, loc Location) *Problem {
	return newProblem(InvalidField, "'"+name+"' is longer than "+strconv.Itoa(max)+" characters.", loc.Member(name))
}

func missing(name, requiredFor string, loc Location) *Problem {
	return newProblem(MissingField, "'"+name+"' is required for "+requiredFor+".", loc.Member(name))
}
