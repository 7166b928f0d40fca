namespace Ingest.Lab.Running;

/// <summary>One reading of a process from /proc: CPU time used so far and resident memory now.</summary>
internal readonly record struct ProcessSample(double AtSeconds, double CpuSeconds, long ResidentBytes);
