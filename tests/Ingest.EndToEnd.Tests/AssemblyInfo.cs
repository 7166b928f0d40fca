// Every class here starts real services and loads them on the machine's few cores: one at a time keeps each test's
// figures (latencies, deadlines, memory) about what it tests, not about a neighbouring test.
[assembly: CollectionBehavior(DisableTestParallelization = true)]
