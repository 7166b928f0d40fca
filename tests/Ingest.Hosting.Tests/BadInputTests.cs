using System.Net;
using System.Text;
using System.Text.Json.Nodes;
using Ingest.Core.Forwarding;
using Ingest.Core.Samples;
using Ingest.Core.Serialization;
using Ingest.Testing;

namespace Ingest.Hosting.Tests;

/// <summary>The front-end answers bad input with the contract's status and problem body, in every API style and
/// with every serializer, and nothing of a rejected request reaches the back-end's sinks.</summary>
public sealed class BadInputTests
{
    private const int MaxBodyBytes = 4096;
    private const int MaxBatchEvents = 20;

    private static readonly Dictionary<string, string?> Limits = new()
    {
        ["Ingest:MaxBodyBytes"] = MaxBodyBytes.ToString(System.Globalization.CultureInfo.InvariantCulture),
        ["Ingest:MaxBatchEvents"] = MaxBatchEvents.ToString(System.Globalization.CultureInfo.InvariantCulture),
    };

    public static TheoryData<SerializerKind, ApiStyle> SerializersAndStyles()
    {
        var data = new TheoryData<SerializerKind, ApiStyle>();
        foreach (var serializer in Enum.GetValues<SerializerKind>())
        {
            foreach (var style in Enum.GetValues<ApiStyle>())
            {
                data.Add(serializer, style);
            }
        }

        return data;
    }

    private static readonly (string Name, string Body, string? ContentType, int Status, string Problem, string? Field)[] Cases =
    [
        ("malformed JSON", "{\"type\":\"job\",", "application/json", 400, "malformed-json", null),
        ("empty body", "", "application/json", 400, "empty-body", null),
        ("blank NDJSON", "\n \n", "application/x-ndjson", 400, "empty-body", null),
        ("wrong content type", SamplePayloads.Classic, "text/plain", 415, "unsupported-media-type", null),
        ("form content type", "data=x", "application/x-www-form-urlencoded", 415, "unsupported-media-type", null),
        ("no content type", SamplePayloads.Classic, null, 415, "unsupported-media-type", null),
        ("non-UTF-8 charset", SamplePayloads.Classic, "application/json; charset=utf-16", 415, "unsupported-media-type", null),
        ("oversize body", SamplePayloads.JobOfSize(MaxBodyBytes + 1), "application/json", 413, "payload-too-large", null),
        ("batch over the limit", SamplePayloads.JsonArray(MaxBatchEvents + 1), "application/json", 413, "payload-too-large", null),
        ("invalid inner document", "{\"data\": \"{'job_id': 'x', 'status': }\"}", "application/json", 400, "malformed-json", null),
        ("inner document without job_id", "{\"data\": \"{'status': 'ok'}\"}", "application/json", 400, "missing-field", "$.data.job_id"),
        ("unknown type", "{\"type\":\"span\",\"source\":\"s\",\"timestamp\":\"2026-11-22T10:00:00Z\"}", "application/json", 400, "unknown-type", "$.type"),
        ("missing field", "{\"type\":\"metric\",\"source\":\"s\",\"timestamp\":\"2026-11-22T10:00:00Z\",\"value\":1}", "application/json", 400, "missing-field", "$.name"),
        ("number for a string", "{\"type\":\"job\",\"source\":\"s\",\"timestamp\":\"2026-11-22T10:00:00Z\",\"job_id\":7,\"status\":\"s\"}", "application/json", 400, "invalid-field", "$.job_id"),
        ("string for a number", "{\"type\":\"metric\",\"source\":\"s\",\"timestamp\":\"2026-11-22T10:00:00Z\",\"name\":\"n\",\"value\":\"7\"}", "application/json", 400, "invalid-field", "$.value"),
        ("object for a string", "{\"type\":\"log\",\"source\":{},\"timestamp\":\"2026-11-22T10:00:00Z\",\"level\":\"info\",\"message\":\"m\"}", "application/json", 400, "invalid-field", "$.source"),
        ("bad event in a batch", "[" + SamplePayloads.Job(0) + ",{\"type\":\"log\",\"source\":\"s\",\"timestamp\":\"2026-11-22T10:00:00Z\",\"level\":\"info\"}]", "application/json", 400, "missing-field", "$[1].message"),
    ];

    [Theory]
    [MemberData(nameof(SerializersAndStyles))]
    public async Task FrontEndRejectsBadInputWithProblemDetailsAndPersistsNothing(SerializerKind serializer, ApiStyle style)
    {
        await using var flow = await Flow.StartAsync(new FlowConfiguration(serializer, ClientStrategy.Static, style), Limits);

        foreach (var c in Cases)
        {
            using var response = await flow.Client.PostEventAsync(c.Body, c.ContentType, expectContinue: c.Status == 413);
            var body = await response.Content.ReadAsStringAsync();
            Assert.True((int)response.StatusCode == c.Status, $"{c.Name}: {(int)response.StatusCode} {body}");
            AssertProblem(body, response.Content.Headers.ContentType?.MediaType, c.Status, c.Problem, c.Field, c.Name);
        }

        // A body cut short by the client closing its side: Kestrel treats the FIN as the client leaving, so there
        // may be no answer at all; what matters is that nothing is acknowledged or persisted.
        var (status, _, truncated) = await RawHttp.SendAsync(flow.FrontEnd.BaseAddress,
            "POST /ingest/event HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n",
            Encoding.UTF8.GetBytes(SamplePayloads.Classic), closeWriteAfter: true);
        Assert.True(status is 0 or 400, $"truncated body: {status} {truncated}");

        // A chunked body has no length to refuse up front: the front-end reads until the limit, then answers.
        // (The last chunk is not sent: a server closing on unread data would reset the connection.)
        var (chunkedStatus, chunkedHead, chunked) = await RawHttp.SendAsync(flow.FrontEnd.BaseAddress,
            "POST /ingest/event HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
            Encoding.ASCII.GetBytes(string.Concat(Enumerable.Repeat("400\r\n" + new string(' ', 0x400) + "\r\n", 5))), closeWriteAfter: false);
        Assert.True(chunkedStatus == 413, $"oversize chunked body: {chunkedStatus} {chunked}");
        Assert.Contains("Connection: close", chunkedHead, StringComparison.OrdinalIgnoreCase);

        Assert.Equal(0, flow.Stats().Total);

        using var healthy = await flow.Client.PostEventAsync(SamplePayloads.Classic);
        Assert.Equal(HttpStatusCode.OK, healthy.StatusCode);
        Assert.Equal(1, flow.Stats().Total);
    }

    internal static void AssertProblem(string body, string? mediaType, int status, string problem, string? field, string because)
    {
        Assert.True(mediaType == "application/problem+json", $"{because}: content type {mediaType}");
        var json = JsonNode.Parse(body)!.AsObject();
        Assert.True((string?)json["type"] == "urn:ingest:problem:" + problem, $"{because}: {body}");
        Assert.Equal(status, (int)json["status"]!);
        Assert.False(string.IsNullOrWhiteSpace((string?)json["title"]), because);
        Assert.False(string.IsNullOrWhiteSpace((string?)json["detail"]), because);
        if (field is not null)
        {
            Assert.True((string?)json["field"] == field, $"{because}: {body}");
        }
    }
}
