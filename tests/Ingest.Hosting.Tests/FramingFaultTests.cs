using System.Net;
using System.Text;
using System.Text.Json.Nodes;
using Ingest.Core.Samples;
using Ingest.Testing;
using Ingest.Transports;
using Xunit.Abstractions;

namespace Ingest.Hosting.Tests;

/// <summary>
/// The generated family of body-framing faults (<see cref="FramingFaults"/>) sent over raw sockets at both services'
/// write endpoints, in every API style, on every Kestrel transport. Whatever the client got wrong, the answer is a
/// 400 (or 408, 413, 431) with a problem body, or a closed connection where the framing is lost — never a 5xx, never
/// an error in the log — nothing is persisted, and the service serves the classic payload afterwards.
/// </summary>
public sealed class FramingFaultTests(ITestOutputHelper output)
{
    private const int MaxBodyBytes = 64 * 1024;

    private static readonly TimeSpan ExchangeTimeout = TimeSpan.FromSeconds(10);

    [Theory]
    [MemberData(nameof(WriteEndpoints.TransportsStylesAndServices), MemberType = typeof(WriteEndpoints))]
    public async Task EveryFramingFaultIsA4xxProblemOrAClosedConnectionNeverA5xxOrAnErrorLog(TransportKind transport, ApiStyle style, ServiceRole role)
    {
        var logs = new CapturingLoggerProvider();
        var limits = new Dictionary<string, string?> { ["Ingest:MaxBodyBytes"] = MaxBodyBytes.ToString(System.Globalization.CultureInfo.InvariantCulture) };
        await using var flow = await Flow.StartAsync(new FlowConfiguration(Style: style, Transport: transport.ToString()), limits, limits, logs);
        var (server, path, valid) = WriteEndpoints.Of(flow, role);

        var failures = new List<string>();
        long persisted = 0;
        foreach (var fault in FramingFaults.For(path, "application/json", Encoding.UTF8.GetBytes(valid), MaxBodyBytes))
        {
            if (fault.Ending == ClientEnding.Resets)
            {
                await RawHttp.SendAndResetAsync(server, fault.Request);
                output.WriteLine($"{fault.Name}: reset");
                continue;
            }

            var exchange = await RawHttp.ExchangeAsync(server, fault.Request, fault.Ending == ClientEnding.HalfCloses, ExchangeTimeout);
            output.WriteLine($"{fault.Name}: {exchange}");
            if (Check(fault, exchange) is { } failure)
            {
                failures.Add($"{fault.Name}: {failure} [{exchange}]");
            }

            persisted += exchange.First?.Status == 200 ? 1 : 0;
            if (flow.Stats().Total != persisted)
            {
                failures.Add($"{fault.Name}: {flow.Stats().Total} events persisted, {persisted} expected");
                persisted = flow.Stats().Total;
            }
        }

        // Still serving, on a new connection.
        using var client = TestClient.Create(server);
        using var healthy = await client.PostAsync(path, new StringContent(valid, Encoding.UTF8, "application/json"));
        Assert.Equal(HttpStatusCode.OK, healthy.StatusCode);
        Assert.Equal(persisted + 1, flow.Stats().Total);

        failures.AddRange(logs.Errors.Select(static entry => $"logged: {entry}"));
        Assert.True(failures.Count == 0, string.Join('\n', failures));
    }

    public static TheoryData<TransportKind, ApiStyle> TransportsAndStyles() => EnumMatrix.Every<TransportKind, ApiStyle>();

    /// <summary>
    /// A reset in the middle of a body races Kestrel's own handling of the closed connection: when the app finished
    /// first, Kestrel drained the body after it and logged an error ("Reading is already in progress"), a few times
    /// in a few hundred. Many resets, so a regression shows.
    /// </summary>
    [Theory]
    [MemberData(nameof(TransportsAndStyles))]
    public async Task ClientsResettingMidBodyNeverCauseAnErrorLog(TransportKind transport, ApiStyle style)
    {
        const int Resets = 400;
        var logs = new CapturingLoggerProvider();
        await using var flow = await Flow.StartAsync(new FlowConfiguration(Style: style, Transport: transport.ToString()), logs: logs);
        var body = Encoding.UTF8.GetBytes(SamplePayloads.Classic);
        const string Head = "POST /ingest/event HTTP/1.1\r\nHost: ingest\r\nContent-Type: application/json\r\n";
        byte[] withLength = [.. Encoding.ASCII.GetBytes(Head + $"Content-Length: {body.Length}\r\n\r\n"), .. body.AsSpan(0, 20)];
        byte[] chunked = [.. Encoding.ASCII.GetBytes(Head + $"Transfer-Encoding: chunked\r\n\r\n{body.Length:x}\r\n"), .. body.AsSpan(0, 20)];

        for (var i = 0; i < Resets; i++)
        {
            await RawHttp.SendAndResetAsync(flow.FrontEnd.BaseAddress, i % 4 != 0 ? withLength : chunked);
        }

        using var healthy = await flow.Client.PostEventAsync(SamplePayloads.Classic);
        Assert.Equal(HttpStatusCode.OK, healthy.StatusCode);
        Assert.Equal(1, flow.Stats().Total);
        // The last resets may still be in Kestrel's hands: give them a moment to log what they would.
        await Task.Delay(TimeSpan.FromMilliseconds(200));
        Assert.True(!logs.Errors.Any(), string.Join('\n', logs.Errors.Take(3)) + $" ({logs.Errors.Count()} errors)");
    }

    /// <summary>The case issue 16 reported: Kestrel throws IOException(OverflowException), which was answered 500.</summary>
    [Fact]
    public async Task AChunkSizeOfTwentyHexDigitsIsA400ProblemThatClosesTheConnection()
    {
        var logs = new CapturingLoggerProvider();
        await using var flow = await Flow.StartAsync(new FlowConfiguration(), logs: logs);
        var request = "POST /ingest/event HTTP/1.1\r\nHost: ingest\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "FFFFFFFFFFFFFFFFFFFF\r\n" + SamplePayloads.Classic + "\r\n0\r\n\r\n";

        var exchange = await RawHttp.ExchangeAsync(flow.FrontEnd.BaseAddress, Encoding.ASCII.GetBytes(request), halfClose: false, ExchangeTimeout);

        var answer = Assert.Single(exchange.Responses);
        BadInputTests.AssertProblem(answer.Body, answer.Header("Content-Type"), 400, "malformed-json", null, "20 hex digits");
        Assert.Contains("Bad chunk size data", answer.Body, StringComparison.Ordinal);
        Assert.Equal("close", answer.Header("Connection"));
        Assert.True(exchange.Closed);
        Assert.Equal(0, flow.Stats().Total);
        Assert.Empty(logs.Errors);
    }

    /// <summary>What is wrong with the server's answer to <paramref name="fault"/>, or null.</summary>
    private static string? Check(FramingCase fault, RawExchange exchange)
    {
        if (exchange.Responses.FirstOrDefault(static r => r.Status >= 500) is { } error)
        {
            return $"a {error.Status}: {error.Body}";
        }

        if (!exchange.Closed)
        {
            return "the connection was left open: its framing is lost, so the server must close it";
        }

        if (exchange.First is not { } first)
        {
            // Without its request's end the server may abort instead of answering (Kestrel's Sockets transport aborts
            // the request on FIN); with the whole request in hand it must answer, unless the fault left nothing to read.
            return fault.Ending == ClientEnding.StaysOpen && !fault.MayCloseUnanswered ? "no answer to a complete request" : null;
        }

        if (first.Status == 200)
        {
            return fault.MayBeAccepted ? null : "accepted a request whose framing is broken";
        }

        if (first.Status is not (400 or 408 or 413 or 431))
        {
            return $"status {first.Status}";
        }

        if (fault.RefusedBeforeTheApp)
        {
            // Kestrel's own answer to a request head it cannot frame: no Ingest code ran, so there is no problem body.
            return first.Body.Length == 0 ? null : $"a body on Kestrel's own 400: {first.Body}";
        }

        if (first.Header("Content-Type") != "application/problem+json")
        {
            return $"content type '{first.Header("Content-Type")}', not a problem";
        }

        var problem = JsonNode.Parse(first.Body)!.AsObject();
        return (int?)problem["status"] == first.Status && ((string?)problem["type"])?.StartsWith("urn:ingest:problem:", StringComparison.Ordinal) == true
            ? null
            : $"a problem that does not match its status: {first.Body}";
    }
}
