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
)

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
