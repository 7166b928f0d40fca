package service

import "math"

// The contract's paths, named once for both HTTP stacks.
const (
	IngestEventPath = "/ingest/event"
	IngestStatsPath = "/ingest/stats"
	PlaintextPath   = "/plaintext"
	JSONPath        = "/json"
	ValuesPrefix    = "/api/values/"
	HealthPath      = "/healthz"
	// ValuesRoute names /api/values/{id} in answers, as the .NET route template does.
	ValuesRoute = ValuesPrefix + "{id:int}"
)

// The Allow value of every route: POST for the write endpoints, GET and HEAD for every other (HEAD answers GET's
// headers without the body, which both HTTP stacks drop). Another method on a route that exists is a 405 with
// Allow and a problem body, as the .NET services answer it.
const (
	ReadAllow  = "GET, HEAD"
	WriteAllow = "POST"
)

// Answers reports whether a route whose Allow value is allow (ReadAllow or WriteAllow) answers method.
func Answers[T string | []byte](allow string, method T) bool {
	if allow == WriteAllow {
		return string(method) == "POST"
	}
	return string(method) == "GET" || string(method) == "HEAD"
}

// The reference endpoints' fixed answers.
const (
	HelloText   = "Hello, World!"
	HealthyText = "Healthy"
	ValueText   = "value"
)

// Hello is the body of GET /json; a new one is serialized per request, as TechEmpower's JSON test demands.
type Hello struct {
	Message string `json:"message"`
}

// IsInt32 is ASP.NET Core's {id:int} route constraint: an optional sign and decimal digits that fit an int32.
func IsInt32[T string | []byte](s T) bool {
	limit := int64(math.MaxInt32)
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		if s[0] == '-' {
			limit++
		}
		s = s[1:]
	}
	if len(s) == 0 {
		return false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return false
		}
		if n = n*10 + int64(c-'0'); n > limit {
			return false
		}
	}
	return true
}
