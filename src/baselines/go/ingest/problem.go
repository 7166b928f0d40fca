// Package ingest holds the contract of docs/contract.md for the Go baselines: parsing (including the classic
// payload's single-quoted inner document), validation, normalisation, problems and counts. The net/http
// and fasthttp servers share it, so they differ only in their HTTP stacks.
package ingest

// Kind names a problem of the contract's error table.
type Kind int

const (
	EmptyBody Kind = iota
	MalformedJSON
	InvalidField
	MissingField
	UnknownType
	RequestTimeout
	PayloadTooLarge
	UnsupportedMediaType
	Overloaded
	BackEndFailed
	BackEndTimeout
	NotFound
)

var kinds = map[Kind]struct {
	status int
	slug   string
	title  string
}{
	EmptyBody:            {400, "empty-body", "The request has no events."},
	MalformedJSON:        {400, "malformed-json", "The body is not well-formed JSON."},
	InvalidField:         {400, "invalid-field", "A field has an invalid value."},
	MissingField:         {400, "missing-field", "A required field is missing."},
	UnknownType:          {400, "unknown-type", "The event type is not known."},
	RequestTimeout:       {408, "request-timeout", "The request body arrived too slowly."},
	PayloadTooLarge:      {413, "payload-too-large", "The request is too large."},
	UnsupportedMediaType: {415, "unsupported-media-type", "The content type is not supported."},
	Overloaded:           {503, "overloaded", "The service is overloaded; retry later."},
	BackEndFailed:        {502, "backend-failed", "The back-end did not accept the events."},
	BackEndTimeout:       {504, "backend-timeout", "The back-end did not answer in time."},
	NotFound:             {404, "not-found", "There is nothing at this address."},
}

// ProblemMediaType is the Content-Type of every error answer (RFC 9457).
const ProblemMediaType = "application/problem+json"

// Problem is an RFC 9457 problem-details body, as every error answer carries it.
type Problem struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail"`
	Field  string `json:"field,omitempty"`
}

// NewProblem builds the problem of a kind, with what happened and, for validation, the JSON path at fault.
func NewProblem(kind Kind, detail, field string) *Problem {
	k := kinds[kind]
	return &Problem{Type: "urn:ingest:problem:" + k.slug, Title: k.title, Status: k.status, Detail: detail, Field: field}
}

// Is reports whether the problem is of the kind.
func (p *Problem) Is(kind Kind) bool {
	return p != nil && p.Type == "urn:ingest:problem:"+kinds[kind].slug
}
