using System.Text;

namespace Ingest.LoadGen.Internal;

/// <summary>
/// Every distinct request of a run, fully encoded (request line, headers, body) once before the run, so
/// sending one is a single send() of an existing array. With several bodies there is one request per body,
/// sent round-robin.
/// </summary>
internal sealed class RequestSet
{
    private RequestSet(byte[][] requests, IReadOnlyList<int> bodySizes, bool isHead)
    {
        Requests = requests;
        BodySizes = bodySizes;
        IsHead = isHead;
    }

    public byte[][] Requests { get; }

    public IReadOnlyList<int> BodySizes { get; }

    /// <summary>HEAD requests: responses carry no body whatever their headers say.</summary>
    public bool IsHead { get; }

    public static async Task<RequestSet> CreateAsync(LoadOptions options, CancellationToken cancellationToken)
    {
        var url = options.Url!;
        var method = options.EffectiveMethod;
        var bodies = new List<ReadOnlyMemory<byte>>(options.Bodies);
        foreach (var file in options.BodyFiles)
        {
            bodies.Add(await File.ReadAllBytesAsync(file, cancellationToken));
        }

        var head = new StringBuilder();
        head.Append(method).Append(' ').Append(url.PathAndQuery).Append(" HTTP/1.1\r\n");
        if (!HasHeader(options.Headers, "Host"))
        {
            head.Append("Host: ").Append(url.Authority).Append("\r\n");
        }

        foreach (var header in options.Headers)
        {
            var colon = header.IndexOf(':', StringComparison.Ordinal);
            head.Append(header.AsSpan(0, colon)).Append(": ").Append(header.AsSpan(colon + 1).Trim()).Append("\r\n");
        }

        var sendsBody = bodies.Count > 0 || method is "POST" or "PUT" or "PATCH";
        if (bodies.Count > 0 && !HasHeader(options.Headers, "Content-Type"))
        {
            head.Append("Content-Type: ").Append(options.ContentType ?? "application/json").Append("\r\n");
        }

        if (bodies.Count == 0)
        {
            // A POST without a body still says so, or servers wait for one (RFC 9110 §8.6).
            bodies.Add(ReadOnlyMemory<byte>.Empty);
        }

        var requests = new byte[bodies.Count][];
        for (var i = 0; i < bodies.Count; i++)
        {
            var text = sendsBody ? $"{head}Content-Length: {bodies[i].Length}\r\n\r\n" : $"{head}\r\n";
            var headBytes = Encoding.Latin1.GetBytes(text);
            var request = new byte[headBytes.Length + bodies[i].Length];
            headBytes.CopyTo(request, 0);
            bodies[i].Span.CopyTo(request.AsSpan(headBytes.Length));
            requests[i] = request;
        }

        var sizes = options.Bodies.Count + options.BodyFiles.Count == 0 ? [] : bodies.ConvertAll(b => b.Length);
        return new RequestSet(requests, sizes, method == "HEAD");
    }

    private static bool HasHeader(IList<string> headers, string name)
    {
        foreach (var header in headers)
        {
            if (header.StartsWith(name, StringComparison.OrdinalIgnoreCase) && header.Length > name.Length && header[name.Length] == ':')
            {
                return true;
            }
        }

        return false;
    }
}
