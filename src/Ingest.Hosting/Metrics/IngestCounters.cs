using System.Diagnostics.Tracing;
using Ingest.Hosting.Internal;

namespace Ingest.Hosting.Metrics;

/// <summary>
/// The services' event counters, for <c>dotnet-counters</c> and Crank's agents (the <c>Ingest-Counters</c> provider in
/// crank/ingest.benchmarks.yml): ingest requests answered and events acknowledged, per second and in total. Counters
/// only, no events: a listener costs one poll a second, where enabling ASP.NET Core's own
/// <c>Microsoft.AspNetCore.Hosting</c> or <c>Microsoft-AspNetCore-Server-Kestrel</c> sources also turns on their events
/// for every request and connection (docs/crank.md measures what that costs). Counts only while a listener is
/// attached, as ASP.NET Core's counters do, so an unwatched service pays one field read per request.
/// </summary>
[EventSource(Name = SourceName)]
internal sealed class IngestCounters : EventSource
{
    public const string SourceName = "Ingest-Counters";

    public static readonly IngestCounters Log = new();

    private long _requests;
    private long _failed;
    private long _events;

    // Created on the first enable and kept for the life of the source; they poll only while a listener is attached.
    private DiagnosticCounter[]? _counters;

    private IngestCounters()
    {
    }

    /// <summary>An ingest request (front-end <c>/ingest/event</c>, back-end <c>/ingest/data</c>) was answered with
    /// <paramref name="outcome"/>: its events acknowledged, or a problem. Not an event (an event source takes every
    /// public method for one, and would refuse this parameter's type).</summary>
    [NonEvent]
    public void Answered(in Outcome outcome)
    {
        if (!IsEnabled())
        {
            return;
        }

        Interlocked.Increment(ref _requests);
        if (outcome.Problem is not null)
        {
            Interlocked.Increment(ref _failed);
        }
        else
        {
            Interlocked.Add(ref _events, outcome.Count);
        }
    }

    protected override void OnEventCommand(EventCommandEventArgs command)
    {
        if (command.Command != EventCommand.Enable || _counters is not null)
        {
            return;
        }

        var second = TimeSpan.FromSeconds(1);
        _counters =
        [
            new IncrementingPollingCounter("requests-per-second", this, () => Volatile.Read(ref _requests))
            {
                DisplayName = "Ingest requests answered",
                DisplayRateTimeScale = second,
            },
            new PollingCounter("total-requests", this, () => Volatile.Read(ref _requests)) { DisplayName = "Ingest requests answered in total" },
            new PollingCounter("failed-requests", this, () => Volatile.Read(ref _failed)) { DisplayName = "Ingest requests answered with a problem" },
            new IncrementingPollingCounter("events-per-second", this, () => Volatile.Read(ref _events))
            {
                DisplayName = "Events acknowledged (accepted by the front-end, persisted by the back-end)",
                DisplayRateTimeScale = second,
            },
            new PollingCounter("total-events", this, () => Volatile.Read(ref _events)) { DisplayName = "Events acknowledged in total" },
        ];
    }
}
