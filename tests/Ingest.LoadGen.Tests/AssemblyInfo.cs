// The load tests share two cores with the server under test: one at a time keeps their behaviour (and the
// open-loop stall test's latencies) about the server, not about a neighbouring test.
[assembly: CollectionBehavior(DisableTestParallelization = true)]
