package contract

import "strconv"

// ProblemMediaType is the Content-Type of every error answer (RFC 9457).
const ProblemMediaType = "application/problem+json"

const problemTypePrefix = "urn:ingest:problem:"

// Kind is one row of the contract's error table; it fixes the status, the type URN and the title.
type Kind uint8

// The kinds of docs/contract.md, in the order of the .NET ProblemKind enum.
const (
	EmptyBody Kind = iota
	MalformedJSON
	InvalidField
	MissingField
	UnknownType
	PayloadTooLarge
	UnsupportedMediaType
	BackEndFailed
	BackEndTimeout
	NotFound
	Overloaded
	MethodNotAllowed
	MalformedRequest
)

type kindInfo struct {
	status int
	slug   string
	title  string
}

// The titles are the .NET service's, word for word: clients may compare whole bodies.
var kinds = [...]kindInfo{
	EmptyBody:            {400, "empty-body", "The request has no events."},
	MalformedJSON:        {400, "malformed-json", "The body is not well-formed JSON."},
	InvalidField:         {400, "invalid-field", "A field has an invalid value."},
	MissingField:         {400, "missing-field", "A required field is missing."},
	UnknownType:          {400, "unknown-type", "The event type is not known."},
	PayloadTooLarge:      {413, "payload-too-large", "The request is too large."},
	UnsupportedMediaType: {415, "unsupported-media-type", "The content type is not supported."},
	BackEndFailed:        {502, "backend-failed", "The back-end did not accept the events."},
	BackEndTimeout:       {504, "backend-timeout", "The back-end did not answer in time."},
	NotFound:             {404, "not-found", "There is nothing at this address."},
	Overloaded:           {503, "overloaded", "The service is overloaded; retry later."},
	MethodNotAllowed:     {405, "method-not-allowed", "This address does not answer this method."},
	MalformedRequest:     {400, "malformed-request", "The request is not valid HTTP."},
}

// Status is the HTTP status code of the kind.
func (k Kind) Status() int { return kinds[k].status }

// Type is the problem type URN, e.g. urn:ingest:problem:missing-field.
func (k Kind) Type() string { return problemTypePrefix + kinds[k].slug }

// Title is the fixed human-readable summary of the kind.
func (k Kind) Title() string { return kinds[k].title }

// Problem is an error answer: a kind, a detail for humans and, when one member is at fault, its JSON path.
type Problem struct {
	Kind   Kind
	Detail string
	// Field is the JSON path of the member at fault ("$[3].job_id"); empty when there is none.
	Field string
	// RetryAfter is the Retry-After header's value in seconds; 0 when the answer carries none.
	RetryAfter int
	// Allow is the Allow header's value of a 405 (RFC 9110 §15.5.6), e.g. "GET, HEAD"; empty otherwise.
	Allow string
}

// Error makes a Problem usable as an error value in tests and logs.
func (p *Problem) Error() string {
	if p.Field == "" {
		return kinds[p.Kind].slug + ": " + p.Detail
	}
	return kinds[p.Kind].slug + " at " + p.Field + ": " + p.Detail
}

// Status is the HTTP status code of the answer.
func (p *Problem) Status() int { return p.Kind.Status() }

// AppendJSON appends the problem+json body: type, title, status, detail and field (only when set),
// in the order the .NET services write them.
func (p *Problem) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"type":`...)
	dst = AppendString(dst, p.Kind.Type())
	dst = append(dst, `,"title":`...)
	dst = AppendString(dst, p.Kind.Title())
	dst = append(dst, `,"status":`...)
	dst = strconv.AppendInt(dst, int64(p.Kind.Status()), 10)
	dst = append(dst, `,"detail":`...)
	dst = AppendString(dst, p.Detail)
	if p.Field != "" {
		dst = append(dst, `,"field":`...)
		dst = AppendString(dst, p.Field)
	}
	return append(dst, '}')
}

func newProblem(kind Kind, detail, field string) *Problem {
	return &Problem{Kind: kind, Detail: detail, Field: field}
}
