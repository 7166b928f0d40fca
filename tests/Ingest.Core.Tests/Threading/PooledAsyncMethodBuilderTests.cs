using System.Runtime.CompilerServices;
using System.Threading.Tasks.Sources;
using Ingest.Core.Threading;

namespace Ingest.Core.Tests.Threading;

/// <summary>
/// The forward path's pooled async method builder keeps the runtime builder's contract — results, exceptions,
/// cancellation, the execution context, a result read once — while it reuses the boxes of suspended calls, and a reused
/// box never carries one call's state into another.
/// </summary>
public sealed class PooledAsyncMethodBuilderTests
{
    [Fact]
    public async Task AMethodThatNeverSuspendsReturnsItsResult()
    {
        var gate = new Gate();
        Assert.Equal(42, await Pooled(gate, 42, suspend: false));
    }

    [Fact]
    public async Task AMethodThatSuspendsReturnsItsResultOnceResumed()
    {
        var gate = new Gate();
        var pending = Pooled(gate, 7, suspend: true);
        Assert.False(pending.IsCompleted);
        gate.Open();
        Assert.Equal(7, await pending);
    }

    [Fact]
    public async Task ExceptionsReachTheCallerWhetherThrownBeforeOrAfterASuspension()
    {
        var gate = new Gate();
        var before = await Assert.ThrowsAsync<InvalidOperationException>(async () => await Throwing(gate, suspend: false));
        Assert.Equal("thrown", before.Message);

        var pending = Throwing(gate, suspend: true);
        gate.Open();
        var after = await Assert.ThrowsAsync<InvalidOperationException>(async () => await pending);
        Assert.Equal("thrown", after.Message);
    }

    [Fact]
    public async Task ACancelledCallEndsCancelled()
    {
        using var cancellation = new CancellationTokenSource();
        var pending = Cancellable(cancellation.Token).AsTask();
        await cancellation.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => pending);
        Assert.True(pending.IsCanceled);
    }

    [Fact]
    public async Task AResultIsReadOnceAndTheReusedBoxRefusesTheOldToken()
    {
        var gate = new Gate();
        var first = Pooled(gate, 1, suspend: true);
        gate.Open();
        Assert.Equal(1, await first);

        // The box went back to the thread's cache when its result was read: the old value task is spent.
        Assert.Throws<InvalidOperationException>(() => first.GetAwaiter().GetResult());
    }

    // Fifty as at c50 on one loop; a thousand as at c1000 with every request on one loop, past the cache's first size and
    // the limit it had before it grew on demand (docs/notebook/fast-path-at-300-connections.md).
    [Theory]
    [InlineData(50)]
    [InlineData(1_000)]
    public void CallsInFlightReuseTheirBoxesOnceTheirResultsAreRead(int inFlight)
    {
        // Continuations inline on this thread, as on a transport's loop (the test runner's context would post them).
        var runner = SynchronizationContext.Current;
        SynchronizationContext.SetSynchronizationContext(null);
        try
        {
            var gates = Enumerable.Range(0, inFlight).Select(_ => new Gate()).ToArray();
            var pending = new ValueTask<int>[gates.Length];
            Cycle(gates, pending); // the first round fills this thread's cache

            var before = GC.GetAllocatedBytesForCurrentThread();
            for (var i = 0; i < 100; i++)
            {
                Cycle(gates, pending);
            }

            // Three nested methods suspend per call: the runtime's pooling builder keeps a box per thread and core, so
            // most of these boxes (each well over 100 bytes) would be allocated. Kept for the calls in flight, the loop
            // allocates nothing.
            Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
        }
        finally
        {
            SynchronizationContext.SetSynchronizationContext(runner);
        }
    }

    [Fact]
    public async Task CallsCompletedOutOfOrderEachGetTheirOwnResultAcrossReuse()
    {
        for (var round = 0; round < 20; round++)
        {
            var gates = Enumerable.Range(0, 300).Select(_ => new Gate()).ToArray();
            var pending = gates.Select((gate, i) => Outer(gate, round * 1_000 + i)).ToArray();
            foreach (var i in Enumerable.Range(0, gates.Length).OrderBy(i => (i * 7919) % gates.Length))
            {
                gates[i].Open();
            }

            for (var i = 0; i < pending.Length; i++)
            {
                Assert.Equal(round * 1_000 + i + 3, await pending[i]);
            }
        }
    }

    [Fact]
    public async Task CallsResumedOnOtherThreadsAllCompleteWithTheirOwnResults()
    {
        var results = await Task.WhenAll(Enumerable.Range(0, 2_000).Select(async i =>
        {
            await Task.Yield();
            return await Hopping(i);
        }));

        Assert.Equal(Enumerable.Range(0, 2_000).Select(i => i * 2), results);
    }

    [Fact]
    public async Task TheExecutionContextFlowsIntoTheContinuationAndNotBackToTheCaller()
    {
        var local = new AsyncLocal<string>();
        var gate = new Gate();
        local.Value = "caller";
        var pending = SeesAndSets(local, gate);

        // Resumed from a context of its own: the method still sees the one it was called in.
        var resumer = new Thread(() =>
        {
            local.Value = "resumer";
            gate.Open();
        });
        resumer.Start();
        resumer.Join();

        Assert.Equal("caller", await pending);
        Assert.Equal("caller", local.Value);
    }

    private static void Cycle(Gate[] gates, ValueTask<int>[] pending)
    {
        for (var i = 0; i < gates.Length; i++)
        {
#pragma warning disable CA2012 // kept in flight on purpose; each is read once below
            pending[i] = Outer(gates[i], i);
#pragma warning restore CA2012
        }

        for (var i = 0; i < gates.Length; i++)
        {
            gates[i].Open();
            if (!pending[i].IsCompleted || pending[i].GetAwaiter().GetResult() != i + 3)
            {
                throw new InvalidOperationException("wrong result");
            }
        }
    }

    [AsyncMethodBuilder(typeof(PooledAsyncMethodBuilder<>))]
    private static async ValueTask<int> Pooled(Gate gate, int value, bool suspend)
    {
        if (suspend)
        {
            await gate.WaitAsync();
        }

        return value;
    }

    [AsyncMethodBuilder(typeof(PooledAsyncMethodBuilder<>))]
    private static async ValueTask<int> Throwing(Gate gate, bool suspend)
    {
        if (suspend)
        {
            await gate.WaitAsync();
        }

        throw new InvalidOperationException("thrown");
    }

    [AsyncMethodBuilder(typeof(PooledAsyncMethodBuilder<>))]
    private static async ValueTask<int> Cancellable(CancellationToken cancellationToken)
    {
        await Task.Delay(Timeout.Infinite, cancellationToken);
        return 0;
    }

    [AsyncMethodBuilder(typeof(PooledAsyncMethodBuilder<>))]
    private static async ValueTask<int> Outer(Gate gate, int value) => await Middle(gate, value) + 1;

    [AsyncMethodBuilder(typeof(PooledAsyncMethodBuilder<>))]
    private static async ValueTask<int> Middle(Gate gate, int value) => await Inner(gate, value) + 1;

    [AsyncMethodBuilder(typeof(PooledAsyncMethodBuilder<>))]
    private static async ValueTask<int> Inner(Gate gate, int value)
    {
        await gate.WaitAsync();
        return value + 1;
    }

    [AsyncMethodBuilder(typeof(PooledAsyncMethodBuilder<>))]
    private static async ValueTask<int> Hopping(int value)
    {
        await Task.Yield();
        var half = await HoppingInner(value);
        await Task.Delay(1);
        return half + value;
    }

    [AsyncMethodBuilder(typeof(PooledAsyncMethodBuilder<>))]
    private static async ValueTask<int> HoppingInner(int value)
    {
        await Task.Yield();
        return value;
    }

    [AsyncMethodBuilder(typeof(PooledAsyncMethodBuilder<>))]
    private static async ValueTask<string> SeesAndSets(AsyncLocal<string> local, Gate gate)
    {
        await gate.WaitAsync();
        var seen = local.Value!;
        local.Value = "callee";
        return seen;
    }

    /// <summary>An awaitable the test opens by hand; its continuation runs inline on the opening thread, and it
    /// allocates nothing once made, so a test can count what the builder allocates.</summary>
    private sealed class Gate : IValueTaskSource
    {
        private ManualResetValueTaskSourceCore<bool> _core;

        public ValueTask WaitAsync() => new(this, _core.Version);

        public void Open() => _core.SetResult(true);

        public void GetResult(short token)
        {
            _core.GetResult(token);
            _core.Reset();
        }

        public ValueTaskSourceStatus GetStatus(short token) => _core.GetStatus(token);

        public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
            _core.OnCompleted(continuation, state, token, flags);
    }
}
