using Polly.CircuitBreaker;

namespace Ingest.Core.Forwarding.Direct;

/// <summary>
/// <see cref="ClientStrategy.LoopDirect"/>'s circuit breaker for one back-end, shared by every loop: the breaker of
/// <see cref="BackEndResilience"/> (Polly's, as Microsoft.Extensions.Http.Resilience sets it up) with the same options
/// and the same states, kept without an async layer per attempt. Closed, it counts attempts in a rolling window of
/// <see cref="ForwardingOptions.BreakerSamplingSeconds"/> (ten slices, the oldest dropped as time goes on); once
/// <see cref="ForwardingOptions.BreakerMinimumThroughput"/> attempts are in the window and the failed share reaches
/// <see cref="ForwardingOptions.BreakerFailureRatio"/>, it opens. Open, every attempt is refused at once with
/// <see cref="BrokenCircuitException"/> (its RetryAfter the time left) for
/// <see cref="ForwardingOptions.BreakerBreakSeconds"/>; then one attempt is let through (half-open): the outcome of an
/// attempt that ends while half-open closes the circuit (success, the window emptied) or opens it again (failure).
/// </summary>
internal sealed class ForwardBreaker(double failureRatio, int minimumThroughput, TimeSpan sampling, TimeSpan breakDuration, TimeProvider time)
{
    private const int Slices = 10;

    private readonly Lock _lock = new();
    private readonly long _sliceTicks = Math.Max(1, sampling.Ticks / Slices);
    private readonly long[] _sliceIndex = new long[Slices];
    private readonly int[] _attempts = new int[Slices];
    private readonly int[] _failures = new int[Slices];
    private volatile State _state;
    private DateTimeOffset _openUntil;
    private bool _probing;

    private enum State
    {
        Closed,
        Open,
        HalfOpen,
    }

    public static ForwardBreaker? From(ForwardingOptions o, TimeProvider time) => o.BreakerBreakSeconds > 0
        ? new ForwardBreaker(o.BreakerFailureRatio, o.BreakerMinimumThroughput, TimeSpan.FromSeconds(o.BreakerSamplingSeconds), TimeSpan.FromSeconds(o.BreakerBreakSeconds), time)
        : null;

    /// <summary>Lets an attempt through, or throws <see cref="BrokenCircuitException"/> while the circuit is open
    /// (and, half-open, while its one trial attempt is out).</summary>
    public void Enter()
    {
        if (_state == State.Closed)
        {
            // The common case, read without the lock: a circuit that opens just now lets this attempt through, as
            // it would had the attempt come a moment earlier.
            return;
        }

        TimeSpan retryAfter;
        lock (_lock)
        {
            var now = time.GetUtcNow();
            if (_state == State.Closed)
            {
                return;
            }

            if (_state == State.Open && now >= _openUntil)
            {
                _state = State.HalfOpen;
                _probing = false;
            }

            if (_state == State.HalfOpen && !_probing)
            {
                _probing = true;
                return;
            }

            retryAfter = _state == State.Open ? _openUntil - now : TimeSpan.Zero;
        }

        throw new BrokenCircuitException("The circuit is now open and is not allowing calls.", retryAfter);
    }

    /// <summary>Counts an attempt's outcome: <paramref name="failed"/> when it failed transiently.</summary>
    public void Record(bool failed)
    {
        lock (_lock)
        {
            switch (_state)
            {
                case State.HalfOpen:
                    if (failed)
                    {
                        Open();
                    }
                    else
                    {
                        _state = State.Closed;
                        Array.Clear(_sliceIndex);
                        Array.Clear(_attempts);
                        Array.Clear(_failures);
                    }

                    return;
                case State.Open:
                    // An attempt let through before the circuit opened: the circuit is already open.
                    return;
            }

            var slice = time.GetUtcNow().UtcTicks / _sliceTicks;
            var at = (int)(slice % Slices);
            if (_sliceIndex[at] != slice)
            {
                _sliceIndex[at] = slice;
                _attempts[at] = 0;
                _failures[at] = 0;
            }

            _attempts[at]++;
            if (!failed)
            {
                return;
            }

            _failures[at]++;
            int attempts = 0, failures = 0;
            for (var i = 0; i < Slices; i++)
            {
                if (_sliceIndex[i] > slice - Slices)
                {
                    attempts += _attempts[i];
                    failures += _failures[i];
                }
            }

            if (attempts >= minimumThroughput && failures >= failureRatio * attempts)
            {
                Open();
            }
        }
    }

    /// <summary>An attempt that ended with neither outcome (its caller went away): a trial attempt's turn passes to the next.</summary>
    public void Abandon()
    {
        lock (_lock)
        {
            if (_state == State.HalfOpen)
            {
                _probing = false;
            }
        }
    }

    private void Open()
    {
        _state = State.Open;
        _openUntil = time.GetUtcNow() + breakDuration;
        _probing = false;
    }
}
