package ingest

import "sync/atomic"

// Stats is the answer of GET /ingest/stats.
type Stats struct {
	Total  int64      `json:"total"`
	ByType TypeCounts `json:"by_type"`
}

// TypeCounts counts events per type.
type TypeCounts struct {
	Job    int64 `json:"job"`
	Metric int64 `json:"metric"`
	Log    int64 `json:"log"`
}

// Counter counts persisted events per type; safe for concurrent use.
type Counter struct {
	job, metric, log atomic.Int64
}

// Record counts events that were persisted.
func (c *Counter) Record(events []Event) {
	var job, metric, log int64
	for i := range events {
		switch events[i].Type {
		case TypeJob:
			job++
		case TypeMetric:
			metric++
		default:
			log++
		}
	}
	c.job.Add(job)
	c.metric.Add(metric)
	c.log.Add(log)
}

// Snapshot returns the counts so far.
func (c *Counter) Snapshot() Stats {
	counts := TypeCounts{Job: c.job.Load(), Metric: c.metric.Load(), Log: c.log.Load()}
	return Stats{Total: counts.Job + counts.Metric + counts.Log, ByType: counts}
}

// Dropper acknowledges every event but drops one in N (a fault for proving loss checks); N = 0 never drops.
type Dropper struct {
	OneIn int64
	seen  atomic.Int64
}

// Filter returns the events the fault lets through.
func (d *Dropper) Filter(events []Event) []Event {
	if d.OneIn <= 0 {
		return events
	}
	first := d.seen.Add(int64(len(events))) - int64(len(events))
	kept := events[:0:0]
	for i := range events {
		if (first+int64(i)+1)%d.OneIn != 0 {
			kept = append(kept, events[i])
		}
	}
	return kept
}
