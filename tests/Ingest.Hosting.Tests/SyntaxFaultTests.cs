using System.Net;
using System.Text;
using System.Text.Json.Nodes;
using Ingest.Core.Samples;
using Ingest.Testing;
using Ingest.Transports;
using Xunit.Abstractions;

namespace Ingest.Hosting.Tests;

/// <summary>
/// The generated family of syntax faults (<see cref="SyntaxFaults"/>) sent over raw sockets to both services, in every
/// API style, on every Kestrel transport: a field name that is not a token is a 400 <c>malformed-request</c> that closes
/// the connection, a known method in another case is an unknown method (405 with Allow on a route, 404 elsewhere) — never
/// served, never a 5xx, never an error in the log, nothing persisted; and the service serves afterwards.
/// </summary>
public sealed class SyntaxFaultTests(ITestOutputHelper output)
{
    private static readonly TimeSpan ExchangeTimeout = TimeSpan.FromSeconds(10);

    [Theory]
    [MemberData(nameof(WriteEndpoints.TransportsStylesAndServices), MemberType = typeof(WriteEndpoints))]
    public async Task EverySyntaxFaultIsRefusedAsTheContractSaysAndNothingIsPersisted(TransportKind transport, ApiStyle style, ServiceRole role)
    {
        var logs = new CapturingLoggerProvider();
        await using var flow = await Flow.StartAsync(new FlowConfiguration(Style: style, Transport: transport.ToString()), logs: logs);
        var (server, path, valid) = WriteEndpoints.Of(flow, role);

        var failures = new List<string>();
        foreach (var fault in SyntaxFaults.For(role, path, "application/json", Encoding.UTF8.GetBytes(valid)))
        {
            var exchange = await RawHttp.ExchangeAsync(server, fault.Request, halfClose: false, ExchangeTimeout);
            if (Check(fault, exchange) is { } failure)
            {
                failures.Add($"{fault.Name}: {failure} [{exchange}]");
            }
        }

        output.WriteLine($"{failures.Count} failures");
        Assert.Equal(0, flow.Stats().Total);

        // Still serving, on a new connection.
        using var client = TestClient.Create(server);
        using var healthy = await client.PostAsync(path, new StringContent(valid, Encoding.UTF8, "application/json"));
        Assert.Equal(HttpStatusCode.OK, healthy.StatusCode);
        Assert.Equal(1, flow.Stats().Total);

        failures.AddRange(logs.Errors.Select(static entry => $"logged: {entry}"));
        Assert.True(failures.Count == 0, string.Join('\n', failures));
    }

    /// <summary>The two requests the issue found served: both refused, each with its problem.</summary>
    [Fact]
    public async Task AFieldNameThatIsNotATokenAndALowerCasePostAreRefused()
    {
        await using var flow = await Flow.StartAsync(new FlowConfiguration());
        var body = SamplePayloads.Classic;
        string Request(string method, string extra) =>
            $"{method} /ingest/event HTTP/1.1\r\nHost: ingest\r\n{extra}Content-Type: application/json\r\nContent-Length: {Encoding.UTF8.GetByteCount(body)}\r\n\r\n{body}";

        var badName = await RawHttp.ExchangeAsync(flow.FrontEnd.BaseAddress, Encoding.Latin1.GetBytes(Request("POST", "X-Bad<Name>\x7f: v\r\n")), halfClose: false, ExchangeTimeout);
        var answer = Assert.Single(badName.Responses);
        BadInputTests.AssertProblem(answer.Body, answer.Header("Content-Type"), 400, "malformed-request", null, "a field name that is not a token");
        Assert.Contains("'X-Bad<Name>\\x7F'", (string?)JsonNode.Parse(answer.Body)!["detail"], StringComparison.Ordinal);
        Assert.Equal("close", answer.Header("Connection"));
        Assert.True(badName.Closed);

        var lowerCase = await RawHttp.ExchangeAsync(flow.FrontEnd.BaseAddress, Encoding.Latin1.GetBytes(Request("post", "Connection: close\r\n")), halfClose: false, ExchangeTimeout);
        answer = Assert.Single(lowerCase.Responses);
        BadInputTests.AssertProblem(answer.Body, answer.Header("Content-Type"), 405, "method-not-allowed", null, "a lower-case post");
        Assert.Equal("POST", answer.Header("Allow"));
        Assert.Equal(0, flow.Stats().Total);
    }

    /// <summary>What is wrong with the server's answer to <paramref name="fault"/>, or null.</summary>
    private static string? Check(SyntaxCase fault, RawExchange exchange)
    {
        if (exchange.First is not { } first)
        {
            return "no answer";
        }

        if (first.Status != fault.Status)
        {
            return $"status {first.Status}, not {fault.Status}";
        }

        if (first.Body.Length == 0 && fault.Status == 400)
        {
            // Kestrel's own parser refused the head before any Ingest code ran (a control character in a name): it
            // answers 400 without a body and closes; the rule holds either way.
            return exchange.Closed ? null : "Kestrel's own 400 left the connection open";
        }

        if (first.Header("Content-Type") != "application/problem+json")
        {
            return $"content type '{first.Header("Content-Type")}', not a problem";
        }

        var problem = JsonNode.Parse(first.Body)!.AsObject();
        if ((string?)problem["type"] != "urn:ingest:problem:" + fault.Problem || (int?)problem["status"] != fault.Status)
        {
            return $"problem {problem["type"]} {problem["status"]}";
        }

        if (fault.Allow is { } allow && first.Header("Allow") != allow)
        {
            return $"Allow '{first.Header("Allow")}', not '{allow}'";
        }

        return fault.Status == 400 && !exchange.Closed ? "the connection was left open after a malformed request" : null;
    }
}
