using System.Net;
using System.Text;
using Ingest.Core.Samples;
using Ingest.Core.Serialization;
using Ingest.Testing;

namespace Ingest.Hosting.Tests;

/// <summary>
/// A generated corpus of hostile bodies, sent at every API style with every serializer: each answer is a 4xx with
/// a problem body — never a 5xx, a hang or a crash — and nothing reaches the sink. Framing attacks (truncated
/// chunks, lying Content-Length, huge headers) go over raw sockets and must end in a 4xx or a closed connection.
/// </summary>
public sealed class HostileInputTests
{
    public static TheoryData<SerializerKind, ApiStyle> SerializersAndStyles() => BadInputTests.SerializersAndStyles();

    [Theory]
    [MemberData(nameof(SerializersAndStyles))]
    public async Task EveryHostileBodyIsA4xxWithAProblemAndNothingIsPersisted(SerializerKind serializer, ApiStyle style)
    {
        await using var flow = await Flow.StartAsync(new FlowConfiguration(serializer, Style: style));
        flow.Client.Timeout = TimeSpan.FromSeconds(10);

        foreach (var (name, body) in Corpus())
        {
            using var request = new HttpRequestMessage(HttpMethod.Post, "/ingest/event") { Content = new ByteArrayContent(body) };
            request.Content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue("application/json");
            // Large bodies wait for the go-ahead, so a 413 answered before reading them is not lost to a reset.
            request.Headers.ExpectContinue = body.Length > 64 * 1024;
            using var response = await flow.Client.SendAsync(request);
            var status = (int)response.StatusCode;
            Assert.True(status is >= 400 and < 500, $"{name}: {status} {await response.Content.ReadAsStringAsync()}");
            Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        }

        foreach (var (name, head, body) in FramingAttacks())
        {
            var (status, _, _) = await RawHttp.SendAsync(flow.FrontEnd.BaseAddress, head, body, closeWriteAfter: true);
            Assert.True(status is 0 or 400 or 408 or 413 or 414 or 431, $"{name}: {status}");
        }

        Assert.Equal(0, flow.Stats().Total);
        using var healthy = await flow.Client.PostEventAsync(SamplePayloads.Classic);
        Assert.Equal(HttpStatusCode.OK, healthy.StatusCode);
    }

    /// <summary>The corpus: hostile variations of valid events, generated so every member gets every wrong type.</summary>
    internal static IEnumerable<(string Name, byte[] Body)> Corpus()
    {
        static byte[] Utf8(string s) => Encoding.UTF8.GetBytes(s);
        var job = SamplePayloads.Job(7);

        yield return ("invalid UTF-8 in a value", [.. Utf8(job[..^2]), (byte)',', .. "\"message\":\""u8, 0xC3, 0x28, .. "\"}"u8]);
        yield return ("overlong UTF-8 encoding", [.. Utf8("{\"type\":\"job\",\"source\":\""), 0xC0, 0xAF, .. Utf8("\",\"timestamp\":\"2026-11-22T10:00:00Z\",\"job_id\":\"j\",\"status\":\"s\"}")]);
        yield return ("lone continuation byte in a key", [.. "{\""u8, 0x80, .. Utf8("\":1}")]);
        yield return ("raw NUL inside a string", Utf8(job.Replace("Success", "Suc\0cess", StringComparison.Ordinal)));
        yield return ("raw NUL between tokens", Utf8(job.Replace(",", ",\0", StringComparison.Ordinal)));
        yield return ("NUL bytes only", new byte[64]);
        yield return ("10,000 nested arrays", Utf8("{\"a\":" + new string('[', 10_000) + new string(']', 10_000) + "}"));
        yield return ("10,000 nested objects", Utf8(string.Concat(Enumerable.Repeat("{\"a\":", 10_000)) + "1" + new string('}', 10_000)));
        yield return ("an unterminated deep nesting", Utf8(new string('[', 100_000)));
        yield return ("a number of 100,000 digits", Utf8(SamplePayloads.Metric(1).Replace("\"value\":0.01", "\"value\":1" + new string('0', 100_000), StringComparison.Ordinal)));
        yield return ("an exponent out of range", Utf8(SamplePayloads.Metric(1).Replace("\"value\":0.01", "\"value\":1e999999", StringComparison.Ordinal)));
        yield return ("a 500 KB source", Utf8(job.Replace("builder-7", new string('b', 500_000), StringComparison.Ordinal)));
        yield return ("a 100 KB status", Utf8(job.Replace("Success: process exited with code 0.", new string('s', 100_000), StringComparison.Ordinal)));
        yield return ("a duplicate type", Utf8(job.Replace("{\"type\":\"job\"", "{\"type\":\"job\",\"type\":\"log\"", StringComparison.Ordinal)));
        yield return ("a duplicate member in the inner document", Utf8("{\"data\": \"{'job_id':'a','job_id':'b','status':'s'}\"}"));
        yield return ("an array of 10,000 nulls", Utf8("[" + string.Join(",", Enumerable.Repeat("null", 10_000)) + "]"));
        yield return ("a batch of 10,000 events", Utf8(SamplePayloads.JsonArray(2_000)[..^1] + "," + string.Join(",", Enumerable.Repeat(job, 8_000)) + "]"));
        yield return ("trailing garbage", Utf8(job + "garbage"));
        yield return ("two documents", Utf8(job + job));

        // Every member of every type, with every JSON type it must not have.
        string[] wrongForString = ["1", "true", "{}", "[]", "1.5e3"];
        string[] wrongForNumber = ["\"1\"", "true", "{}", "[]"];
        foreach (var (template, members) in new[]
        {
            (SamplePayloads.Job(3), new[] { "type", "source", "timestamp", "job_id", "container_id", "status" }),
            (SamplePayloads.Metric(4), new[] { "type", "source", "timestamp", "name", "unit" }),
            (SamplePayloads.Log(5), new[] { "type", "source", "timestamp", "level", "message" }),
        })
        {
            foreach (var member in members)
            {
                foreach (var wrong in wrongForString)
                {
                    yield return ($"{member} = {wrong}", Utf8(ReplaceValue(template, member, wrong)));
                }
            }
        }

        foreach (var wrong in wrongForNumber)
        {
            yield return ($"value = {wrong}", Utf8(SamplePayloads.Metric(4).Replace("\"value\":0.04", "\"value\":" + wrong, StringComparison.Ordinal)));
        }

        foreach (var wrong in wrongForString.Concat(["null"]))
        {
            yield return ($"data = {wrong}", Utf8("{\"data\":" + wrong + "}"));
        }
    }

    private static IEnumerable<(string Name, string Head, byte[] Body)> FramingAttacks()
    {
        const string Post = "POST /ingest/event HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n";
        var body = Encoding.UTF8.GetBytes(SamplePayloads.Classic);
        yield return ("truncated chunk", Post + "Transfer-Encoding: chunked\r\n\r\n", Encoding.ASCII.GetBytes("64\r\n" + SamplePayloads.Classic[..40]));
        yield return ("chunk size not hex", Post + "Transfer-Encoding: chunked\r\n\r\n", Encoding.ASCII.GetBytes("zz\r\nabc\r\n0\r\n\r\n"));
        yield return ("chunk longer than declared", Post + "Transfer-Encoding: chunked\r\n\r\n", Encoding.ASCII.GetBytes("2\r\nabcdef\r\n0\r\n\r\n"));
        yield return ("Content-Length above the body", Post + "Content-Length: 5000\r\n\r\n", body);
        yield return ("Content-Length below the body", Post + "Content-Length: 10\r\n\r\n", body);
        yield return ("Content-Length not a number", Post + "Content-Length: lots\r\n\r\n", body);
        yield return ("two Content-Lengths", Post + $"Content-Length: {body.Length}\r\nContent-Length: 3\r\n\r\n", body);
        yield return ("Content-Length with chunked", Post + $"Content-Length: {body.Length}\r\nTransfer-Encoding: chunked\r\n\r\n", body);
        yield return ("a 100 KB header", Post + $"X-Huge: {new string('h', 100_000)}\r\nContent-Length: {body.Length}\r\n\r\n", body);
        yield return ("500 headers", Post + string.Concat(Enumerable.Range(0, 500).Select(i => $"X-{i}: v\r\n")) + $"Content-Length: {body.Length}\r\n\r\n", body);
        yield return ("a request line of 100 KB", $"POST /ingest/event?{new string('q', 100_000)} HTTP/1.1\r\nHost: t\r\nContent-Length: {body.Length}\r\n\r\n", body);
        yield return ("not HTTP at all", "\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003\r\n\r\n", body);
    }

    private static string ReplaceValue(string json, string member, string value)
    {
        var key = $"\"{member}\":";
        var start = json.IndexOf(key, StringComparison.Ordinal) + key.Length;
        var end = json[start] == '"' ? json.IndexOf('"', start + 1) + 1 : json.IndexOfAny([',', '}'], start);
        return json[..start] + value + json[end..];
    }
}
