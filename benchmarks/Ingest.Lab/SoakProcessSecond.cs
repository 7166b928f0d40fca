namespace Ingest.Lab;

/// <summary>
/// One service during one second of a soak: CPU cores and threads from /proc; garbage-collection pause time and
/// collections in that second (.NET: from its /metrics; Go: from its GC trace); for .NET also the thread pool's
/// threads and queue and the active timers at the end of the second. Null where the runtime gives no such figure.
/// </summary>
internal sealed record SoakProcessSecond(string Process, double CpuCores, long Threads, double? GcPauseMs, double? Collections, double? Gen2Collections, double? PoolThreads, double? PoolQueue, double? Timers);
