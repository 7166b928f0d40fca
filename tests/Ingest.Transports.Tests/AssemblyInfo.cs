// The suites share two cores with the servers they start; running them one after another keeps the
// 1,000-connection and 64 MB tests from timing each other out.
[assembly: CollectionBehavior(DisableTestParallelization = true)]
