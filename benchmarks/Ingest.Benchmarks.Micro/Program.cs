using Ingest.Benchmarks.Common;

return BenchmarkHost.Run(typeof(Program).Assembly, args);
