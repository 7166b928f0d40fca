using System.Net;
using Ingest.Core.Forwarding;
using Ingest.Core.Samples;
using Ingest.Hosting.Tests.Infrastructure;
using Ingest.Testing;

namespace Ingest.Hosting.Tests;

/// <summary>Under concurrency every request is answered 200 and the back-end counts exactly what was sent.</summary>
[Collection(IsolatedTests.Name)]
public sealed class NoLossTests
{
    private const int Requests = 5_000;
    private const int Connections = 64;

    public static TheoryData<ClientStrategy, ForwardingMode> StrategiesAndModes()
    {
        var data = new TheoryData<ClientStrategy, ForwardingMode>();
        foreach (var strategy in Enum.GetValues<ClientStrategy>())
        {
            foreach (var mode in Enum.GetValues<ForwardingMode>())
            {
                data.Add(strategy, mode);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(StrategiesAndModes))]
    public async Task FiveThousandConcurrentClassicPayloadsAreAllPersisted(ClientStrategy strategy, ForwardingMode mode)
    {
        // Blocking on .Result starves the thread pool until it has grown a thread per waiting request: the
        // original's failure mode, worse here, as both services share this test's pool. The point here is that none is
        // lost, so the pool starts with the threads the blocked requests need (it would grow to them at about one a
        // second: most of a minute), its forwards and requests are given time, and no breaker opens on a slow start.
        var blocking = strategy == ClientStrategy.PerRequestBlocking;
        ThreadPool.GetMinThreads(out var workers, out var completionPorts);
        if (blocking)
        {
            ThreadPool.SetMinThreads(Math.Max(workers, 4 * Connections), completionPorts);
        }

        try
        {
            await SendAndCountAsync(strategy, mode, blocking);
        }
        finally
        {
            ThreadPool.SetMinThreads(workers, completionPorts);
        }
    }

    private static async Task SendAndCountAsync(ClientStrategy strategy, ForwardingMode mode, bool blocking)
    {
        await using var flow = await Flow.StartAsync(
            new FlowConfiguration(Strategy: strategy, Mode: mode),
            frontEndExtra: blocking
                ? new()
                {
                    ["Forwarding:TimeoutMilliseconds"] = "120000",
                    ["Forwarding:AttemptTimeoutMilliseconds"] = "120000",
                    ["Forwarding:BreakerBreakSeconds"] = "0",
                }
                : null);
        using var client = TestClient.Create(flow.FrontEnd.BaseAddress, Connections);
        client.Timeout = blocking ? TimeSpan.FromMinutes(3) : client.Timeout;
        var next = -1;
        var failures = new System.Collections.Concurrent.ConcurrentBag<string>();

        async Task WorkerAsync()
        {
            while (Interlocked.Increment(ref next) < Requests)
            {
                using var response = await client.PostEventAsync(SamplePayloads.Classic);
                if (response.StatusCode != HttpStatusCode.OK)
                {
                    failures.Add($"{(int)response.StatusCode} {await response.Content.ReadAsStringAsync()}");
                }
            }
        }

        await Task.WhenAll(Enumerable.Range(0, Connections).Select(_ => Task.Run(WorkerAsync)));

        Assert.Empty(failures);
        Assert.Equal(Requests, flow.Stats().Total);
        Assert.Equal(Requests, flow.Stats().ByType.Job);
    }
}
