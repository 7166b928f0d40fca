package contract

import (
	"strings"
	"testing"
)

// The contract's hot path per request, for comparison with the .NET micro benchmarks: read and
// normalise a body, then write the forward body. Each checks its result before timing.

func benchmarkRead(b *testing.B, body string, format Format, want int) {
	reader := RequestReader{MaxBatchEvents: DefaultMaxBatchEvents}
	events, p := reader.Read([]byte(body), format, fixedNow, nil)
	if p != nil || len(events) != want {
		b.Fatalf("%d events, %v", len(events), p)
	}
	data := []byte(body)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		events, _ = reader.Read(data, format, fixedNow, events[:0])
	}
}

func BenchmarkReadClassic(b *testing.B) { benchmarkRead(b, classic2016, JSON, 1) }

func BenchmarkReadTypedJob(b *testing.B) { benchmarkRead(b, typedJob(1), JSON, 1) }

func BenchmarkReadBatch100(b *testing.B) {
	items := make([]string, 100)
	for i := range items {
		items[i] = []string{typedJob(i), typedMetric(i), typedLog(i), classic2016}[i%4]
	}
	b.Run("array", func(b *testing.B) { benchmarkRead(b, "["+strings.Join(items, ",")+"]", JSON, 100) })
	b.Run("ndjson", func(b *testing.B) { benchmarkRead(b, strings.Join(items, "\n"), NDJSON, 100) })
}

func BenchmarkAppendEventsClassic(b *testing.B) {
	events, p := RequestReader{MaxBatchEvents: 1}.Read([]byte(classic2016), JSON, fixedNow, nil)
	if p != nil {
		b.Fatal(p)
	}
	buf := AppendEvents(nil, events)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = AppendEvents(buf[:0], events)
	}
}

func BenchmarkReadForwardedClassic(b *testing.B) {
	events, _ := RequestReader{MaxBatchEvents: 1}.Read([]byte(classic2016), JSON, fixedNow, nil)
	body := AppendEvents(nil, events)
	var types []EventType
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var p *Problem
		if types, p = ReadForwarded(body, types[:0]); p != nil {
			b.Fatal(p)
		}
	}
}
