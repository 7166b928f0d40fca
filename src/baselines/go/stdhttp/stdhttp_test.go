package stdhttp_test

import (
	"net/http"
	"strings"
	"testing"

	"ingest/contract"
	"ingest/internal/e2etest"
	"ingest/service"
	"ingest/stdhttp"
)

func startFrontEnd(t testing.TB, c *service.Config) string {
	front := stdhttp.NewFrontEnd(c)
	t.Cleanup(front.Close)
	return e2etest.Serve(t, stdhttp.NewServer(front))
}

func TestPooledFrontEnd(t *testing.T) {
	e2etest.Run(t, e2etest.FrontEnd{Stack: service.NetHTTP, Args: []string{"-client", "pooled"}, Start: startFrontEnd})
}

func TestPerRequestFrontEnd(t *testing.T) {
	e2etest.Run(t, e2etest.FrontEnd{Stack: service.NetHTTP, Args: []string{"-client", "per-request"}, Start: startFrontEnd})
}

func TestBackEndPersistsCheckedEventsAndCountsThem(t *testing.T) {
	backEnd := e2etest.StartBackEnd(t)
	url := backEnd + contract.DataPath
	one := `{"type":"log","source":"a","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:01Z","level":"info","message":"m"}`
	metric := `{"type":"metric","source":"a","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:01Z","name":"n","value":1}`

	e2etest.Post(t, url, e2etest.JSON, one).Want(t, http.StatusOK, e2etest.JSON, `{"persisted":1}`)
	e2etest.Post(t, url, e2etest.JSON, "["+one+","+metric+","+metric+"]").Want(t, http.StatusOK, e2etest.JSON, `{"persisted":3}`)

	e2etest.Post(t, url, e2etest.NDJSON, one).WantProblem(t, http.StatusUnsupportedMediaType, "unsupported-media-type", "")
	e2etest.Post(t, url, "", one).WantProblem(t, http.StatusUnsupportedMediaType, "unsupported-media-type", "")
	e2etest.Post(t, url, e2etest.JSON, "["+one+`,{"type":"job","source":"a","timestamp":"2026-11-22T10:00:00Z","status":"s"}]`).
		WantProblem(t, http.StatusBadRequest, "missing-field", "$[1].job_id")
	e2etest.Post(t, url, e2etest.JSON, `{"type":"bogus","source":"a","timestamp":"2026-11-22T10:00:00Z"}`).
		WantProblem(t, http.StatusBadRequest, "unknown-type", "$.type")
	e2etest.Post(t, url, e2etest.JSON, "[]").WantProblem(t, http.StatusBadRequest, "empty-body", "")
	e2etest.Post(t, url, e2etest.JSON, "[1").WantProblem(t, http.StatusBadRequest, "malformed-json", "$[0]")
	e2etest.Post(t, url, e2etest.JSON, "["+strings.Repeat(one+",", 10000)+one+"]").WantProblem(t, http.StatusRequestEntityTooLarge, "payload-too-large", "")

	if a := e2etest.Get(t, backEnd+service.IngestStatsPath); string(a.Body) != `{"total":4,"by_type":{"job":0,"metric":2,"log":2}}` {
		t.Fatalf("stats %s", a.Body)
	}
	e2etest.Get(t, backEnd+service.HealthPath).Want(t, http.StatusOK, contract.TextMediaType, service.HealthyText)
	e2etest.Get(t, backEnd+service.PlaintextPath).WantProblem(t, http.StatusNotFound, "not-found", "")
	e2etest.WantMethods(t, url, service.WriteAllow, "["+one+"]")
	e2etest.WantMethods(t, backEnd+service.IngestStatsPath, service.ReadAllow, "")
	e2etest.WantMethods(t, backEnd+service.HealthPath, service.ReadAllow, "")
}

func TestDropFaultLosesOneEventInNThoughAllAreAcknowledged(t *testing.T) {
	backEnd := e2etest.StartBackEnd(t, "-drop-one-in", "10")
	front := startFrontEnd(t, e2etest.Config(t, service.NetHTTP, "-backends", backEnd))
	batch, _ := e2etest.Batch(100, ",")
	e2etest.Post(t, front+service.IngestEventPath, e2etest.JSON, "["+batch+"]").Want(t, http.StatusOK, e2etest.JSON, `{"accepted":100}`)
	if got := e2etest.Stats(t, backEnd).Total(); got != 90 {
		t.Fatalf("persisted %d; want 90", got)
	}
}
