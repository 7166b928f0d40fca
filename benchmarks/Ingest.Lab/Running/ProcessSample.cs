namespace Ingest.Lab.Running;

/// <summary>One reading of a process from /proc: CPU time used so far (and the kernel's part of it), resident memory
/// now, and its context switches so far where this reading took them (the first and last of a phase: they cost a file
/// read per thread).</summary>
internal readonly record struct ProcessSample(double AtSeconds, double CpuSeconds, long ResidentBytes, double KernelSeconds = 0, long? ContextSwitches = null);
