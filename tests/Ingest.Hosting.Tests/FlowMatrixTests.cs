using System.Net;
using Ingest.Core.Events;
using Ingest.Core.Forwarding;
using Ingest.Core.Samples;
using Ingest.Core.Serialization;
using Ingest.Core.Sinks;
using Ingest.Testing;
using Ingest.Transports;

namespace Ingest.Hosting.Tests;

/// <summary>Every Kestrel transport × serializer × client strategy × API style × forwarding mode runs the real
/// front-end against the real back-end on loopback, and the back-end's counts must match what was sent exactly.
/// A transport that cannot run on the machine fails its cases with its start-up message: none is skipped (RedHatLinux,
/// which only a build given its package has, is left out of other builds, as <see cref="OptionalTransportTests"/> says).</summary>
public sealed class FlowMatrixTests
{
    public static TheoryData<TransportKind, SerializerKind, ClientStrategy, ApiStyle, ForwardingMode> Matrix()
    {
        var data = new TheoryData<TransportKind, SerializerKind, ClientStrategy, ApiStyle, ForwardingMode>();
        foreach (var transport in TransportKinds.InThisBuild)
        {
            AddEveryConfiguration(data, transport);
        }

        return data;
    }

    private static void AddEveryConfiguration(TheoryData<TransportKind, SerializerKind, ClientStrategy, ApiStyle, ForwardingMode> data, TransportKind transport)
    {
        foreach (var serializer in Enum.GetValues<SerializerKind>())
        {
            foreach (var strategy in Enum.GetValues<ClientStrategy>())
            {
                // Loop-owned connections need a transport with its own loops (the start-up refusal is tested in ConfigurationTests).
                if (strategy.NeedsLoops() && transport is not (TransportKind.LinuxEpoll or TransportKind.IoUring))
                {
                    continue;
                }

                foreach (var style in Enum.GetValues<ApiStyle>())
                {
                    foreach (var mode in Enum.GetValues<ForwardingMode>())
                    {
                        data.Add(transport, serializer, strategy, style, mode);
                    }
                }
            }
        }
    }

    [Theory]
    [MemberData(nameof(Matrix))]
    public async Task FrontEndForwardsEveryPayloadToTheBackEnd(TransportKind transport, SerializerKind serializer, ClientStrategy strategy, ApiStyle style, ForwardingMode mode)
    {
        await using var flow = await Flow.StartAsync(new FlowConfiguration(serializer, strategy, style, mode, transport.ToString()));

        await AcceptedAsync(flow, SamplePayloads.Classic, 1);
        await AcceptedAsync(flow, SamplePayloads.Job(1), 1);
        await AcceptedAsync(flow, SamplePayloads.Metric(2), 1);
        await AcceptedAsync(flow, SamplePayloads.Log(3), 1);
        await AcceptedAsync(flow, SamplePayloads.JsonArray(100), 100);
        await AcceptedAsync(flow, SamplePayloads.Ndjson(100), 100, "application/x-ndjson");

        var (jobs, metrics, logs) = SamplePayloads.MixedCounts(100);
        var stats = flow.Stats();
        Assert.Equal(204, stats.Total);
        Assert.Equal(2 + (2 * jobs), stats.ByType.Job);
        Assert.Equal(1 + (2 * metrics), stats.ByType.Metric);
        Assert.Equal(1 + (2 * logs), stats.ByType.Log);

        var classic = Assert.IsType<MemorySink>(flow.BackEnd.Get<SinkRouter>().SinkFor(EventType.Job)).Recent()[0];
        Assert.Equal(("classic", "c4bb6d130003", "ab7b85dcac72", "Success: process exited with code 0."), (classic.Source, classic.JobId, classic.ContainerId, classic.Status));
        Assert.Equal(DateTimeKind.Utc, classic.ReceivedAt.Kind);
        Assert.True(DateTime.UtcNow - classic.ReceivedAt < TimeSpan.FromMinutes(1));
    }

    private static async Task AcceptedAsync(Flow flow, string body, int count, string contentType = "application/json")
    {
        using var response = await flow.Client.PostEventAsync(body, contentType);
        var json = await response.JsonAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, json.ToJsonString());
        Assert.Equal("application/json", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal(count, (int)json["accepted"]!);
    }
}
