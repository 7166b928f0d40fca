using System.Collections.Concurrent;
using System.Diagnostics.Tracing;
using Ingest.Hosting.Metrics;
using Ingest.Testing;

namespace Ingest.Hosting.Tests;

/// <summary>
/// The <c>Ingest-Counters</c> event source, as Crank's agent and dotnet-counters read it: an EventPipe-style listener
/// that enables it with an interval gets its counters, and they count the requests both services answered.
/// </summary>
public sealed class EventCountersTests
{
    private const int Accepted = 12;
    private const int Rejected = 2;

    [Fact]
    public async Task AListenerGetsRequestsAndEventsAnsweredByBothServices()
    {
        using var listener = new CounterListener();
        await using var flow = await Flow.StartAsync(new FlowConfiguration());
        await listener.Enabled.Task.WaitAsync(TimeSpan.FromSeconds(10));
        await MetricsEndpointTests.SendAsync(flow, Accepted, Rejected);

        // The source is process-wide, and other tests of this assembly may run beside this one: at least what was sent.
        // Front-end: Accepted + Rejected requests, Accepted events; back-end: Accepted requests and events. Each counter
        // is sampled on its own, so one can show the last request while another still shows the interval before: wait
        // for all three (the wait fails after 10 s with every counter it saw).
        var totals = await listener.UntilAsync(c => c.GetValueOrDefault("total-requests") >= (2 * Accepted) + Rejected
            && c.GetValueOrDefault("total-events") >= 2 * Accepted && c.GetValueOrDefault("failed-requests") >= Rejected);
        Assert.True(totals["failed-requests"] >= Rejected, $"failed-requests {totals["failed-requests"]}");
        Assert.True(totals["total-events"] >= 2 * Accepted, $"total-events {totals["total-events"]}");
        Assert.Contains("requests-per-second", listener.Seen.Keys);
        Assert.Contains("events-per-second", listener.Seen.Keys);
    }

    /// <summary>Enables the source as an out-of-process session would (counters every 0.2 s) and keeps the last
    /// value of each counter: the mean of a polling counter, the increment of a rate.</summary>
    private sealed class CounterListener : EventListener
    {
        public ConcurrentDictionary<string, double> Seen { get; } = new();

        public TaskCompletionSource Enabled { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public async Task<Dictionary<string, double>> UntilAsync(Func<Dictionary<string, double>, bool> done)
        {
            var deadline = DateTime.UtcNow.AddSeconds(10);
            while (true)
            {
                var snapshot = new Dictionary<string, double>(Seen);
                if (done(snapshot))
                {
                    return snapshot;
                }

                Assert.True(DateTime.UtcNow < deadline, $"Counters seen: {string.Join(", ", snapshot.Select(c => $"{c.Key}={c.Value}"))}");
                await Task.Delay(100);
            }
        }

        protected override void OnEventSourceCreated(EventSource eventSource)
        {
            if (eventSource.Name == IngestCounters.SourceName)
            {
                EnableEvents(eventSource, EventLevel.Informational, EventKeywords.All, new Dictionary<string, string?> { ["EventCounterIntervalSec"] = "0.2" });
                Enabled.TrySetResult();
            }
        }

        protected override void OnEventWritten(EventWrittenEventArgs eventData)
        {
            if (eventData.EventName != "EventCounters" || eventData.Payload is not [IDictionary<string, object> payload, ..])
            {
                return;
            }

            var name = (string)payload["Name"];
            Seen[name] = Convert.ToDouble(payload.TryGetValue("Mean", out var mean) ? mean : payload["Increment"], System.Globalization.CultureInfo.InvariantCulture);
        }
    }
}
