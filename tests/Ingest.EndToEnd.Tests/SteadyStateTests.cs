using Ingest.Lab.Catalogue;
using Ingest.Lab.Running;
using Xunit.Abstractions;

namespace Ingest.EndToEnd.Tests;

/// <summary>
/// A steady load throws nothing, in either service: an exception is a stack walk, and one thrown per request or per
/// window is a normal outcome reported by throwing (a batch window closed by cancelling its wait was one). Counted by
/// each service's runtime (System.Runtime's exception counter on its /metrics) before and after a short load, the load
/// generator's end included, for the default configuration, the fastest one and batched forwarding.
/// </summary>
[Collection(PublishedServices.Name)]
public sealed class SteadyStateTests(Services services, ITestOutputHelper output)
{
    [Theory]
    [InlineData("default")]
    [InlineData("Fastest")]
    [InlineData("batched")]
    public async Task ASteadyLoadThrowsNoExceptionInTheFrontEndOrTheBackEnd(string configuration)
    {
        (string, string)[] settings = configuration switch
        {
            "Fastest" => [("environment", "Fastest")],
            "batched" => [("Forwarding:Mode", "Batched")],
            _ => [],
        };
        var (backEnd, backEndUrl) = await services.StartAsync(ServiceRole.BackEnd, settings);
        await using var _ = backEnd;
        var (frontEnd, frontEndUrl) = await services.StartAsync(ServiceRole.FrontEnd, [("Forwarding:BackEnds:0", backEndUrl.ToString().TrimEnd('/')), .. settings]);
        await using var __ = frontEnd;
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(10) };

        var before = await ReadAsync(http, frontEndUrl, backEndUrl);
        var run = await services.LoadAsync(frontEndUrl, new LoadSpec("/ingest/event", PayloadKind.Classic, 16), TimeSpan.FromSeconds(3));
        var after = await ReadAsync(http, frontEndUrl, backEndUrl);

        output.WriteLine($"{run.Successful} acknowledged; exceptions: front-end {before.FrontEnd} -> {after.FrontEnd}, back-end {before.BackEnd} -> {after.BackEnd}");
        Assert.True(run.Successful > 0 && run.ErrorCount == 0, $"{run.Successful} acknowledged, errors {string.Join(", ", run.Errors)}");
        Assert.Equal(before.FrontEnd, after.FrontEnd);
        Assert.Equal(before.BackEnd, after.BackEnd);
    }

    private static async Task<(double FrontEnd, double BackEnd)> ReadAsync(HttpClient http, Uri frontEnd, Uri backEnd)
    {
        static async Task<double> Exceptions(HttpClient http, Uri service) =>
            (await RuntimeCounters.ReadAsync(http, new Uri(service, "metrics"), CancellationToken.None))?.Exceptions
            ?? throw new InvalidOperationException($"{service}metrics has no runtime counters");

        return (await Exceptions(http, frontEnd), await Exceptions(http, backEnd));
    }
}
