package contract

import (
	"encoding/json"
	"math"
	"testing"
)

func TestProblemBodyIsTheContractsShape(t *testing.T) {
	p := &Problem{Kind: MissingField, Detail: "'job_id' is required for a job event.", Field: "$[3].job_id"}
	want := `{"type":"urn:ingest:problem:missing-field","title":"A required field is missing.","status":400,"detail":"'job_id' is required for a job event.","field":"$[3].job_id"}`
	if got := string(p.AppendJSON(nil)); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	withoutField := string((&Problem{Kind: BackEndTimeout, Detail: "slow"}).AppendJSON(nil))
	if withoutField != `{"type":"urn:ingest:problem:backend-timeout","title":"The back-end did not answer in time.","status":504,"detail":"slow"}` {
		t.Fatalf("got %s", withoutField)
	}
}

func TestEveryKindHasItsStatusAndURN(t *testing.T) {
	want := map[Kind]struct {
		status int
		urn    string
	}{
		EmptyBody: {400, "empty-body"}, MalformedJSON: {400, "malformed-json"}, InvalidField: {400, "invalid-field"},
		MissingField: {400, "missing-field"}, UnknownType: {400, "unknown-type"}, PayloadTooLarge: {413, "payload-too-large"},
		UnsupportedMediaType: {415, "unsupported-media-type"}, BackEndFailed: {502, "backend-failed"},
		BackEndTimeout: {504, "backend-timeout"}, NotFound: {404, "not-found"}, Overloaded: {503, "overloaded"},
		MethodNotAllowed: {405, "method-not-allowed"}, MalformedRequest: {400, "malformed-request"},
	}
	for kind, w := range want {
		if kind.Status() != w.status || kind.Type() != "urn:ingest:problem:"+w.urn || kind.Title() == "" {
			t.Errorf("%v: %d %s %q", kind, kind.Status(), kind.Type(), kind.Title())
		}
	}
}

func TestAnswerBodies(t *testing.T) {
	if got := string(AppendAccepted(nil, 100)); got != `{"accepted":100}` {
		t.Error(got)
	}
	if got := string(AppendPersisted(nil, 1)); got != `{"persisted":1}` {
		t.Error(got)
	}
	if got := string(Stats{Job: 5000, Metric: 2, Log: 1}.AppendJSON(nil)); got != `{"total":5003,"by_type":{"job":5000,"metric":2,"log":1}}` {
		t.Error(got)
	}
}

func TestAppendStringEscapesWhatJSONNeeds(t *testing.T) {
	cases := map[string]string{
		"plain":               `"plain"`,
		`q"b\s`:               `"q\"b\\s"`,
		"\n\r\t\b\f\x00\x1f":  `"\n\r\t\b\f\u0000\u001f"`,
		"café ☕ 😀 \u2028 <&>": `"café ☕ 😀 ` + "\u2028" + ` <&>"`,
		"bad \xff utf8":       `"bad \ufffd utf8"`,
	}
	for in, want := range cases {
		got := AppendString(nil, in)
		if string(got) != want {
			t.Errorf("AppendString(%q) = %s; want %s", in, got, want)
		}
		var back string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Errorf("AppendString(%q) is not JSON: %v", in, err)
		}
	}
}

func TestAppendFloatRoundTrips(t *testing.T) {
	cases := map[float64]string{
		0.93: "0.93", -1500: "-1500", 0: "0", 1e21: "1e+21", 1e-7: "1e-7", 1.5e-300: "1.5e-300",
		1.2345678901234568e29: "1.2345678901234568e+29", 123456789: "123456789", 0.000001: "0.000001",
		math.MaxFloat64: "1.7976931348623157e+308",
	}
	for in, want := range cases {
		if got := string(AppendFloat(nil, in)); got != want {
			t.Errorf("AppendFloat(%v) = %s; want %s", in, got, want)
		}
	}
}

func TestContentTypes(t *testing.T) {
	accepted := map[string]Format{
		"application/json": JSON, "Application/JSON": JSON, "application/json; charset=utf-8": JSON,
		`application/json;charset="UTF-8"`: JSON, "application/x-ndjson": NDJSON, "application/x-ndjson; charset=utf8": NDJSON,
		" application/json ; foo=bar": JSON, "application/json; foo; charset=utf-8": JSON,
		"application/json; charset=utf-8; charset=latin1": JSON,
	}
	for in, want := range accepted {
		if got, ok := ContentTypeFormat(in); !ok || got != want {
			t.Errorf("%q: %v %v", in, got, ok)
		}
		if got, ok := ContentTypeFormat([]byte(in)); !ok || got != want {
			t.Errorf("%q as bytes: %v %v", in, got, ok)
		}
	}
	for _, in := range []string{"", "text/plain", "application/xml", "application/json; charset=iso-8859-1",
		"application/jsonx", "multipart/form-data; boundary=x", "application/problem+json", "json"} {
		if _, ok := ContentTypeFormat(in); ok {
			t.Errorf("%q accepted", in)
		}
	}
}

func TestLocationPaths(t *testing.T) {
	cases := map[string]string{
		WholeBody().Root():                 "$",
		Item(3).Member("job_id"):           "$[3].job_id",
		WholeBody().Inner().Member("x"):    "$.data.x",
		Item(0).Inner().Root():             "$[0].data",
		WholeBody().Member("odd name"):     "$['odd name']",
		WholeBody().Member("a.b"):          "$['a.b']",
		Item(12).Inner().Member("job_id"):  "$[12].data.job_id",
		WholeBody().Inner().Member("type"): "$.data.type",
	}
	for got, want := range cases {
		if got != want {
			t.Errorf("got %s; want %s", got, want)
		}
	}
}

func TestIsToken(t *testing.T) {
	for _, name := range []string{"Content-Type", "X-A", "x!#$%&'*+-.^_`|~09az", "1"} {
		if !IsToken([]byte(name)) {
			t.Errorf("%q is a token", name)
		}
	}
	bad := []string{"", "X A", "X-A\t", "X\x7f", "X\x80", "X\xff", "X\x00"}
	for _, c := range "\"(),/;<=>?@[\\]{}:" {
		bad = append(bad, "X"+string(c))
	}
	for _, name := range bad {
		if IsToken([]byte(name)) {
			t.Errorf("%q is no token", name)
		}
	}
	p := NotATokenProblem([]byte("X-Bad<Name>\x7f"))
	if p.Kind.Status() != 400 || p.Kind.Type() != "urn:ingest:problem:malformed-request" || p.Detail != `The header field name 'X-Bad<Name>\x7F' is not a token (RFC 9110 section 5.1).` {
		t.Errorf("%d %s %q", p.Kind.Status(), p.Kind.Type(), p.Detail)
	}
}
