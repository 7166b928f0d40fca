package contract

// Media types of the contract.
const (
	JSONMediaType   = "application/json"
	NDJSONMediaType = "application/x-ndjson"
	TextMediaType   = "text/plain"
)

// Format is how a request body holds its events.
type Format uint8

const (
	// JSON is application/json: one event object or a JSON array of them.
	JSON Format = iota
	// NDJSON is application/x-ndjson: one event object per line.
	NDJSON
)

// ContentTypeFormat reads a Content-Type header value: application/json or application/x-ndjson in any
// case, with parameters, as long as the first charset parameter (if any) names UTF-8. Generic so the
// fasthttp front-end can pass its header bytes without a copy.
func ContentTypeFormat[T string | []byte](contentType T) (Format, bool) {
	mediaType, params := contentType, contentType[:0]
	for i := 0; i < len(contentType); i++ {
		if contentType[i] == ';' {
			mediaType, params = contentType[:i], contentType[i+1:]
			break
		}
	}
	hasParams := len(mediaType) < len(contentType)

	var format Format
	switch mediaType = trimOWS(mediaType); {
	case asciiFoldEqual(mediaType, JSONMediaType):
		format = JSON
	case asciiFoldEqual(mediaType, NDJSONMediaType):
		format = NDJSON
	default:
		return JSON, false
	}
	return format, !hasParams || charsetIsUTF8(params)
}

// charsetIsUTF8 looks at the first charset parameter of a ";"-separated list; none means UTF-8.
func charsetIsUTF8[T string | []byte](params T) bool {
	for len(params) > 0 {
		param := params
		params = params[:0]
		for i := 0; i < len(param); i++ {
			if param[i] == ';' {
				param, params = param[:i], param[i+1:]
				break
			}
		}
		eq := -1
		for i := 0; i < len(param); i++ {
			if param[i] == '=' {
				eq = i
				break
			}
		}
		if eq < 0 || !asciiFoldEqual(trimOWS(param[:eq]), "charset") {
			continue
		}
		value := trimOWS(param[eq+1:])
		for len(value) > 0 && value[0] == '"' {
			value = value[1:]
		}
		for len(value) > 0 && value[len(value)-1] == '"' {
			value = value[:len(value)-1]
		}
		return asciiFoldEqual(value, "utf-8") || asciiFoldEqual(value, "utf8")
	}
	return true
}

func trimOWS[T string | []byte](s T) T {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

// asciiFoldEqual compares s with lower, a lower-case ASCII constant, ignoring ASCII case.
func asciiFoldEqual[T string | []byte](s T, lower string) bool {
	if len(s) != len(lower) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}
