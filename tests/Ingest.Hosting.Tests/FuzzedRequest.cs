using System.Globalization;
using System.Text;
using Ingest.Core.Samples;
using Ingest.Testing;

namespace Ingest.Hosting.Tests;

/// <summary>
/// One HTTP/1.1 request of the HTTP fuzz: a valid request of the contract (<see cref="Corpus"/>), then one to three
/// mutations of its request line, headers, framing or body (<see cref="Mutate"/>), rendered to the exact bytes sent.
/// Built from a <see cref="Random"/> of its own (seed and index), so any one request replays alone.
/// </summary>
internal sealed class FuzzedRequest
{
    private static readonly string[] Methods = ["GET", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "FOO", "post", "P OST", ""];

    private static readonly string[] Versions = ["HTTP/1.0", "HTTP/1.2", "HTTP/2.0", "HTTP/1", "http/1.1", "HTTP/1.1 x", "HTTP/9.9"];

    private static readonly string[] ContentTypes =
    [
        "application/json; charset=latin1", "application/x-ndjson", "text/plain", "", "application/json;charset=\"utf-8\"", "APPLICATION/JSON",
        "application/json,", "multipart/form-data; boundary=x", "application/problem+json", "application/json; charset=utf-8; q=0",
    ];

    private static readonly string[] JunkHeaders =
    [
        "X-A: v", "Bad Name: v", "X-A:\tv\t", "X-Fold: a\r\n b", "Host: second", "Expect: 100-continue", "Connection: keep-alive",
        "Content-Encoding: gzip", "Transfer-Encoding: gzip, chunked", "Transfer-Encoding: identity", "X-Utf8: caf\u00e9", ": no name",
        "X-Ctl: a\u0001b", "Idempotency-Key: fuzz",
    ];

    // Which chunked-framing fault RenderChunks writes (-1: none), and whether the rendered bytes get a byte-level mutation.
    private int _chunkFault = -1;
    private bool _mutateBytes;

    private FuzzedRequest(string method, string target, string version, List<string> headers, byte[] body, bool chunked)
    {
        Method = method;
        Target = target;
        Version = version;
        Headers = headers;
        Body = body;
        Chunked = chunked;
    }

    public string Method { get; private set; }

    public string Target { get; private set; }

    public string Version { get; private set; }

    public List<string> Headers { get; }

    public byte[] Body { get; private set; }

    public bool Chunked { get; private set; }

    /// <summary>The bytes as sent, set by <see cref="Mutate"/>.</summary>
    public byte[] Wire { get; private set; } = [];

    public string Description { get; private set; } = "";

    /// <summary>The valid requests the mutations start from: what each service serves (the front-end's ingest and
    /// reference endpoints, the back-end's forward endpoint), with every framing the contract allows.</summary>
    public static FuzzedRequest Corpus(bool backEnd, Random random)
    {
        if (backEnd)
        {
            var forward = $$"""[{"type":"job","source":"classic","timestamp":"{{SamplePayloads.Timestamp}}","received_at":"2026-11-22T10:00:00.5Z","job_id":"j","status":"s"},{"type":"metric","source":"n","timestamp":"2026-11-22T11:00:00+01:00","name":"cpu","value":0.5}]""";
            return random.Next(4) == 0
                ? Get("/ingest/stats")
                : Post("/ingest/data", "application/json", forward, chunked: random.Next(3) == 0);
        }

        return random.Next(10) switch
        {
            0 => Get(random.Next(2) == 0 ? "/healthz" : "/json"),
            1 => Post("/ingest/event", "application/x-ndjson", SamplePayloads.Ndjson(3), chunked: random.Next(2) == 0),
            2 => Post("/ingest/event", "application/json", SamplePayloads.JsonArray(4), chunked: random.Next(2) == 0),
            3 => Post("/ingest/event", "application/json; charset=utf-8", SamplePayloads.Mixed(random.Next(3)), chunked: false),
            _ => Post("/ingest/event", "application/json", SamplePayloads.Classic, chunked: random.Next(3) == 0),
        };
    }

    /// <summary>One to three mutations, then the bytes: rendered, and mutated byte by byte when one of them says so.</summary>
    public void Mutate(Random random)
    {
        var descriptions = new List<string>();
        for (var n = random.Next(1, 4); n > 0; n--)
        {
            descriptions.Add(MutateOnce(random));
        }

        Description = string.Join("; ", descriptions);
        Wire = Render(random);
        if (_mutateBytes)
        {
            Wire = Mutator.Mutate(Wire, random);
        }
    }

    private string MutateOnce(Random random)
    {
        switch (random.Next(10))
        {
            case 0:
                Method = Methods[random.Next(Methods.Length)];
                return $"method {Method}";
            case 1:
                Target = random.Next(6) switch
                {
                    0 => Target + "/",
                    1 => Target.ToUpperInvariant(),
                    2 => Target + "?q=" + new string('x', random.Next(1, 10_000)),
                    3 => Target.Replace("/ingest/", "/ingest/%2e%2e/ingest/", StringComparison.Ordinal),
                    4 => "*",
                    _ => "http://other" + Target,
                };
                return $"target {Target[..Math.Min(Target.Length, 60)]}";
            case 2:
                Version = Versions[random.Next(Versions.Length)];
                return $"version {Version}";
            case 3:
                var contentType = ContentTypes[random.Next(ContentTypes.Length)];
                Headers.RemoveAll(h => h.StartsWith("Content-Type:", StringComparison.Ordinal));
                Headers.Add("Content-Type: " + contentType);
                return $"content-type '{contentType}'";
            case 4:
                var junk = JunkHeaders[random.Next(JunkHeaders.Length)];
                Headers.Insert(random.Next(Headers.Count + 1), junk);
                return $"header '{junk}'";
            case 5:
                if (Headers.Count > 0 && random.Next(3) == 0)
                {
                    var removed = Headers[random.Next(Headers.Count)];
                    Headers.Remove(removed);
                    return $"without '{removed}'";
                }

                var length = random.Next(4) switch
                {
                    0 => "abc",
                    1 => "-1",
                    2 => "99999999999999999999",
                    _ => (Body.Length + random.Next(-5, 6)).ToString(CultureInfo.InvariantCulture),
                };
                Headers.Add("Content-Length: " + length);
                return $"content-length {length}";
            case 6:
                Chunked = !Chunked;
                return Chunked ? "chunked" : "not chunked";
            case 7:
                if (Body.Length > 0)
                {
                    Body = Mutator.Mutate(Body, random);
                }

                return "body mutated";
            case 8:
                // Framing faults are rendered with the body: mark the request chunked and let Render break it.
                Chunked = true;
                _chunkFault = random.Next(9);
                return $"chunk fault {_chunkFault}";
            default:
                _mutateBytes = true;
                return "bytes mutated";
        }
    }

    private byte[] Render(Random random)
    {
        var head = new StringBuilder();
        head.Append(Method).Append(' ').Append(Target).Append(' ').Append(Version).Append("\r\n");
        foreach (var header in Headers)
        {
            head.Append(header).Append("\r\n");
        }

        var hasLength = Headers.Exists(h => h.StartsWith("Content-Length:", StringComparison.OrdinalIgnoreCase));
        var body = Body;
        if (Chunked)
        {
            head.Append("Transfer-Encoding: chunked\r\n");
            body = RenderChunks(random);
        }
        else if (!hasLength && (Body.Length > 0 || Method == "POST"))
        {
            head.Append("Content-Length: ").Append(Body.Length.ToString(CultureInfo.InvariantCulture)).Append("\r\n");
        }

        head.Append("\r\n");
        return [.. Encoding.Latin1.GetBytes(head.ToString()), .. body];
    }

    private byte[] RenderChunks(Random random)
    {
        var output = new MemoryStream();
        void Write(string text) => output.Write(Encoding.Latin1.GetBytes(text));
        var uppercase = random.Next(2) == 0;
        for (var offset = 0; offset < Body.Length;)
        {
            var size = Math.Min(Body.Length - offset, random.Next(1, 64));
            var hex = size.ToString(uppercase ? "X" : "x", CultureInfo.InvariantCulture).PadLeft(random.Next(1, 6), '0');
            var line = _chunkFault switch
            {
                0 => "-" + hex,
                1 => "z" + hex,
                2 => hex + " ",
                3 => (size + random.Next(1, 9)).ToString("x", CultureInfo.InvariantCulture),
                _ => random.Next(4) == 0 ? hex + ";ext=\"v\"" : hex,
            };
            Write(line + (_chunkFault == 4 ? "\n" : "\r\n"));
            output.Write(Body, offset, size);
            Write(_chunkFault == 5 ? "" : "\r\n");
            offset += size;
        }

        switch (_chunkFault)
        {
            case 6:
                break; // the last chunk never comes
            case 7:
                Write("0\r\nX-Trailer: yes\r\nBad Trailer\r\n\r\n");
                break;
            case 8:
                // Issue 16: 20 hex digits overflow Kestrel's chunk-size parser, answered 500 until the fix is merged.
                Write("FFFFFFFFFFFFFFFFFFFF\r\nabc\r\n0\r\n\r\n");
                break;
            default:
                Write(random.Next(4) == 0 ? "0\r\nX-Trailer: yes\r\n\r\n" : "0\r\n\r\n");
                break;
        }

        return output.ToArray();
    }

    private static FuzzedRequest Get(string target) =>
        new("GET", target, "HTTP/1.1", ["Host: fuzz", "Connection: close"], [], chunked: false);

    private static FuzzedRequest Post(string target, string contentType, string body, bool chunked) =>
        new("POST", target, "HTTP/1.1", ["Host: fuzz", "Content-Type: " + contentType, "Connection: close"], Encoding.UTF8.GetBytes(body), chunked);
}
