using Ingest.Core.Forwarding.Direct;
using Polly.CircuitBreaker;

namespace Ingest.Core.Tests.Direct;

/// <summary>LoopDirect's breaker keeps Polly's states with the same options: a failed share over a rolling window
/// opens it, open it refuses with the time left, then one trial attempt decides.</summary>
public sealed class ForwardBreakerTests
{
    private readonly ManualTime _time = new();

    // Half the attempts failing in a 10 s window of at least 4 attempts opens it for 30 s.
    private ForwardBreaker Breaker() => new(0.5, 4, TimeSpan.FromSeconds(10), TimeSpan.FromSeconds(30), _time);

    [Fact]
    public void HalfTheAttemptsFailingOnceThereAreEnoughOpensTheCircuitWithTheTimeLeft()
    {
        var breaker = Breaker();
        Pass(breaker, failed: false);
        Pass(breaker, failed: true);
        Pass(breaker, failed: false);
        breaker.Enter();  // 1 of 3 failed, too few attempts anyway: still closed
        breaker.Record(failed: true);

        _time.Advance(TimeSpan.FromSeconds(12));
        var refused = Assert.Throws<BrokenCircuitException>(breaker.Enter);
        Assert.Equal(TimeSpan.FromSeconds(18), refused.RetryAfter);
    }

    [Fact]
    public void FailuresBelowTheRatioOrOutsideTheWindowLeaveItClosed()
    {
        var breaker = Breaker();
        Pass(breaker, failed: true);
        Pass(breaker, failed: true);
        Pass(breaker, failed: true);

        // Those three fall out of the 10 s window: what counts now is one failure in five attempts.
        _time.Advance(TimeSpan.FromSeconds(11));
        for (var i = 0; i < 4; i++)
        {
            Pass(breaker, failed: false);
        }

        Pass(breaker, failed: true);
        breaker.Enter();
    }

    [Fact]
    public void AfterTheBreakOneTrialGoesThroughAndItsSuccessClosesTheCircuitWithAnEmptyWindow()
    {
        var breaker = OpenedBreaker();
        _time.Advance(TimeSpan.FromSeconds(30));

        breaker.Enter();
        Assert.Throws<BrokenCircuitException>(breaker.Enter);   // only one trial at a time
        breaker.Record(failed: false);

        // Closed, and the failures from before the break no longer count: three more failures of four attempts
        // open it only at the fourth.
        Pass(breaker, failed: true);
        Pass(breaker, failed: true);
        Pass(breaker, failed: true);
        breaker.Enter();
        breaker.Record(failed: true);
        Assert.Throws<BrokenCircuitException>(breaker.Enter);
    }

    [Fact]
    public void AFailedTrialOpensItForAnotherBreak()
    {
        var breaker = OpenedBreaker();
        _time.Advance(TimeSpan.FromSeconds(30));
        breaker.Enter();
        breaker.Record(failed: true);

        _time.Advance(TimeSpan.FromSeconds(29));
        Assert.Equal(TimeSpan.FromSeconds(1), Assert.Throws<BrokenCircuitException>(breaker.Enter).RetryAfter);
        _time.Advance(TimeSpan.FromSeconds(1));
        breaker.Enter();
    }

    [Fact]
    public void AnAbandonedTrialPassesItsTurnToTheNextAttempt()
    {
        var breaker = OpenedBreaker();
        _time.Advance(TimeSpan.FromSeconds(30));
        breaker.Enter();
        breaker.Abandon();

        breaker.Enter();
        Assert.Throws<BrokenCircuitException>(breaker.Enter);
    }

    private ForwardBreaker OpenedBreaker()
    {
        var breaker = Breaker();
        for (var i = 0; i < 4; i++)
        {
            Pass(breaker, failed: true);
        }

        Assert.Throws<BrokenCircuitException>(breaker.Enter);
        return breaker;
    }

    private static void Pass(ForwardBreaker breaker, bool failed)
    {
        breaker.Enter();
        breaker.Record(failed);
    }

    private sealed class ManualTime : TimeProvider
    {
        private DateTimeOffset _now = new(2026, 11, 26, 12, 0, 0, TimeSpan.Zero);

        public override DateTimeOffset GetUtcNow() => _now;

        public void Advance(TimeSpan by) => _now += by;
    }
}
