// Package testkit holds what the Go baselines' tests share: configurations and payloads.
package testkit

import (
	"fmt"
	"strings"
	"time"

	"ingest/server"
)

// Classic is the 2016 test's payload, byte for byte.
const Classic = `{"data": "{'job_id':'c4bb6d130003','container_id':'ab7b85dcac72','status':'Success: process exited with code 0.'}"}`

// Config is the flags' defaults with small limits, the given back-ends and client.
func Config(backEnds []string, client string) server.Config {
	return server.Config{BackEnds: backEnds, Client: client, MaxIdlePerHost: 100, Timeout: 5 * time.Second, MaxBodyBytes: 4096, MaxBatchEvents: 20}
}

// Batch is n events — jobs, metrics and logs in turn — joined by separator.
func Batch(n int, separator string) string {
	items := make([]string, n)
	for i := range items {
		switch i % 3 {
		case 0:
			items[i] = fmt.Sprintf(`{"type":"job","source":"b","timestamp":"2026-11-22T10:00:00Z","job_id":"job-%d","status":"ok"}`, i)
		case 1:
			items[i] = fmt.Sprintf(`{"type":"metric","source":"n","timestamp":"2026-11-22T10:00:00Z","name":"cpu","value":%d}`, i)
		default:
			items[i] = fmt.Sprintf(`{"type":"log","source":"a","timestamp":"2026-11-22T10:00:00Z","level":"warn","message":"m%d"}`, i)
		}
	}
	return strings.Join(items, separator)
}
