package ingest

import "time"

// Event types, as they travel on the wire.
const (
	TypeJob    = "job"
	TypeMetric = "metric"
	TypeLog    = "log"
)

// Document is one incoming event object as a client sent it, before validation: the classic payload
// (Data holds the inner document) or a typed event. Pointers tell absent and null from empty.
type Document struct {
	Data        *string  `json:"data"`
	Type        *string  `json:"type"`
	Source      *string  `json:"source"`
	Timestamp   *string  `json:"timestamp"`
	JobID       *string  `json:"job_id"`
	ContainerID *string  `json:"container_id"`
	Status      *string  `json:"status"`
	Name        *string  `json:"name"`
	Value       *float64 `json:"value"`
	Unit        *string  `json:"unit"`
	Level       *string  `json:"level"`
	Message     *string  `json:"message"`
}

// Event is a validated, normalised event: what the front-end forwards and the back-end persists.
type Event struct {
	Type        string   `json:"type"`
	Source      string   `json:"source"`
	Timestamp   Time     `json:"timestamp"`
	ReceivedAt  Time     `json:"received_at"`
	JobID       *string  `json:"job_id,omitempty"`
	ContainerID *string  `json:"container_id,omitempty"`
	Status      *string  `json:"status,omitempty"`
	Name        *string  `json:"name,omitempty"`
	Value       *float64 `json:"value,omitempty"`
	Unit        *string  `json:"unit,omitempty"`
	Level       *string  `json:"level,omitempty"`
	Message     *string  `json:"message,omitempty"`
}

// Time is a UTC instant written as RFC 3339 with 'Z' and only the fraction digits it needs, as the .NET
// serializers write it. Its zero value means "absent" when an event is read back.
type Time struct{ time.Time }

// MarshalJSON writes the instant in UTC.
func (t Time) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, len(time.RFC3339Nano)+2)
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, time.RFC3339Nano)
	return append(b, '"'), nil
}

// UnmarshalJSON reads an ISO 8601 date-time; null leaves the zero value.
func (t *Time) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	if len(data) < 2 || data[0] != '"' {
		return &fieldTypeError{"must be an ISO 8601 date-time string"}
	}
	parsed, ok := ParseTimestamp(string(data[1 : len(data)-1]))
	if !ok {
		return &fieldTypeError{"must be an ISO 8601 date-time string"}
	}
	t.Time = parsed
	return nil
}

type fieldTypeError struct{ message string }

func (e *fieldTypeError) Error() string { return e.message }

// timestampLayouts are the ISO 8601 forms the .NET serializers accept; without an offset, UTC.
var timestampLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04",
	"2006-01-02",
}

// ParseTimestamp reads an ISO 8601 date-time as the contract allows it.
func ParseTimestamp(text string) (time.Time, bool) {
	for _, layout := range timestampLayouts {
		if t, err := time.Parse(layout, text); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}
