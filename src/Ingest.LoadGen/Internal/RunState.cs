using System.Diagnostics;

namespace Ingest.LoadGen.Internal;

/// <summary>What the workers of one run share: the phase boundaries (Stopwatch timestamps), the request
/// budget of the measured phase, and the stop flag. Everything else is per worker.</summary>
internal sealed class RunState
{
    private long _budget;
    private int _stop;
    private Exception? _failure;

    private readonly long _durationTicks;
    private long _measureStart;
    private long _end;

    public RunState(LoadOptions options, long runStart)
    {
        var frequency = Stopwatch.Frequency;
        RunStart = runStart;
        _durationTicks = (long)(options.Duration.TotalSeconds * frequency);
        if (options.WarmupLimit is null)
        {
            _measureStart = runStart + (long)(options.Warmup.TotalSeconds * frequency);
            _end = _measureStart + _durationTicks;
        }
        else
        {
            // An adaptive warm-up: nothing is measured, and nothing ends, until BeginMeasurement says the target is warm.
            _measureStart = long.MaxValue;
            _end = long.MaxValue;
        }

        TimeoutTicks = (long)(options.Timeout.TotalSeconds * frequency);
        TicksPerRequest = options.Rate is { } rate ? frequency / rate : 0;
        _budget = options.MaxRequests;
    }

    public long RunStart { get; }

    /// <summary>Where the measured phase starts: requests sent before it are warm-up. Read by every worker; moves once,
    /// from long.MaxValue, when an adaptive warm-up ends.</summary>
    public long MeasureStart => Volatile.Read(ref _measureStart);

    public long End => Volatile.Read(ref _end);

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

    /// <summary>Ends an adaptive warm-up at <paramref name="now"/>: the measured phase starts there and lasts the
    /// run's duration. The end is published first, so no worker sees a started phase without its end.</summary>
    public void BeginMeasurement(long now)
    {
        Volatile.Write(ref _end, now + _durationTicks);
        Volatile.Write(ref _measureStart, now);
    }

    public void Fail(Exception exception)
    {
        Interlocked.CompareExchange(ref _failure, exception, null);
        RequestStop();
    }
}
