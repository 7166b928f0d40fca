using Ingest.Core.Events;
using Ingest.Core.Forwarding;
using Ingest.Core.Problems;
using Microsoft.Extensions.Options;

namespace Ingest.Core.Tests;

/// <summary>The batching logic alone, over a recording forwarder: the integration tests run it against a real back-end.</summary>
public sealed class BatchingForwarderTests
{
    [Fact]
    public async Task GathersConcurrentRequestsIntoFewerCallsAndAnswersEachCaller()
    {
        var inner = new RecordingForwarder(delay: TimeSpan.FromMilliseconds(20));
        await using var batching = new BatchingForwarder(inner, Options.Create(new ForwardingOptions
        {
            BatchMaxEvents = 50,
            BatchWindowMilliseconds = 5,
            MaxInFlightBatches = 2,
        }));

        var calls = Enumerable.Range(0, 200).Select(i => batching.ForwardAsync([Event(i)], CancellationToken.None).AsTask()).ToArray();
        var outcomes = await Task.WhenAll(calls);

        Assert.All(outcomes, Assert.Null);
        Assert.Equal(200, inner.Events.Count);
        Assert.Equal(Enumerable.Range(0, 200).Select(i => i.ToString(System.Globalization.CultureInfo.InvariantCulture)).Order(), inner.Events.Select(e => e.Source).Order());
        Assert.True(inner.Calls < 200, $"{inner.Calls} back-end calls for 200 requests");
        Assert.True(inner.MaxBatch <= 50, $"a batch held {inner.MaxBatch} events");
    }

    [Fact]
    public async Task EveryCallerOfAFailedBatchGetsItsProblem()
    {
        var failure = IngestProblem.Create(ProblemKind.BackEndFailed, "down");
        await using var batching = new BatchingForwarder(new RecordingForwarder(TimeSpan.Zero, failure), Options.Create(new ForwardingOptions()));

        var outcomes = await Task.WhenAll(Enumerable.Range(0, 20).Select(i => batching.ForwardAsync([Event(i)], CancellationToken.None).AsTask()));

        Assert.All(outcomes, o => Assert.Same(failure, o));
    }

    [Fact]
    public async Task ShedsWith503WhenTheQueueIsFull()
    {
        var gate = new TaskCompletionSource();
        await using var batching = new BatchingForwarder(new RecordingForwarder(TimeSpan.Zero, gate: gate.Task), Options.Create(new ForwardingOptions
        {
            BatchMaxEvents = 1,
            MaxInFlightBatches = 1,
            BatchQueueCapacity = 3,
        }));

        var accepted = Enumerable.Range(0, 3).Select(i => batching.ForwardAsync([Event(i)], CancellationToken.None).AsTask()).ToList();
        await Task.Delay(100);
        var shed = await batching.ForwardAsync([Event(9), Event(10), Event(11), Event(12)], CancellationToken.None);
        gate.SetResult();

        Assert.NotNull(shed);
        Assert.Equal(503, shed.Status);
        Assert.Equal(1, shed.RetryAfterSeconds());
        Assert.All(await Task.WhenAll(accepted), Assert.Null);
    }

    private static IngestEvent Event(int i) => new()
    {
        Type = EventType.Job,
        Source = i.ToString(System.Globalization.CultureInfo.InvariantCulture),
        Timestamp = DateTime.UtcNow,
        ReceivedAt = DateTime.UtcNow,
    };

    private sealed class RecordingForwarder(TimeSpan delay, IngestProblem? outcome = null, Task? gate = null) : IEventForwarder
    {
        private readonly Lock _lock = new();

        public List<IngestEvent> Events { get; } = [];

        public int Calls { get; private set; }

        public int MaxBatch { get; private set; }

        public async ValueTask<IngestProblem?> ForwardAsync(List<IngestEvent> events, CancellationToken cancellationToken)
        {
            if (gate is not null)
            {
                await gate;
            }

            await Task.Delay(delay, cancellationToken);
            lock (_lock)
            {
                Calls++;
                MaxBatch = Math.Max(MaxBatch, events.Count);
                Events.AddRange(events);
            }

            return outcome;
        }
    }
}
