using System.Diagnostics;

namespace Ingest.LoadGen.Internal;

/// <summary>What the workers of one run share: the phase boundaries (Stopwatch timestamps), the request
/// budget of the measured phase, and the stop flag. Everything else is per worker.</summary>
internal sealed class RunState
{
    private long _budget;
    private int _stop;
    private Exception? _failure;

    public RunState(LoadOptions options, long runStart)
    {
        var frequency = Stopwatch.Frequency;
        RunStart = runStart;
        MeasureStart = runStart + (long)(options.Warmup.TotalSeconds * frequency);
        End = MeasureStart + (long)(options.Duration.TotalSeconds * frequency);
        TimeoutTicks = (long)(options.Timeout.TotalSeconds * frequency);
        TicksPerRequest = options.Rate is { } rate ? frequency / rate : 0;
        _budget = options.MaxRequests;
    }

    public long RunStart { get; }

    public long MeasureStart { get; }

    public long End { get; }

    public long TimeoutTicks { get; }

    /// <summary>Open loop: Stopwatch ticks between two due times over the whole run; 0 in closed loop.</summary>
    public double TicksPerRequest { get; }

    public bool IsOpenLoop => TicksPerRequest > 0;

    public bool StopRequested => Volatile.Read(ref _stop) != 0;

    /// <summary>True once every measured request has been handed out.</summary>
    public bool BudgetExhausted => Volatile.Read(ref _budget) <= 0;

    public Exception? Failure => Volatile.Read(ref _failure);

    public void RequestStop() => Volatile.Write(ref _stop, 1);

    /// <summary>Takes one request of the measured phase's budget; false when none is left.</summary>
    public bool TryReserve() => Interlocked.Decrement(ref _budget) >= 0;

    public void Fail(Exception exception)
    {
        Interlocked.CompareExchange(ref _failure, exception, null);
        RequestStop();
    }
}
