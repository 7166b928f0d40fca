using System.Text;

namespace Ingest.Hosting.Tests;

/// <summary>
/// A generated family of requests whose syntax HTTP refuses but a lenient parser serves, for one service: a header field
/// name holding each character a token may not (RFC 9110 §5.1, §5.6.2: every separator, DEL, controls, bytes beyond
/// ASCII, an empty name), and each method the contract knows spelled in another case, or an unknown one (RFC 9110 §9.1:
/// methods are case-sensitive), on every route of the service and on a path that is none. The class is tested, not one
/// case.
/// </summary>
internal static class SyntaxFaults
{
    /// <summary>Characters that are not tchar: the separators, DEL, two controls, and a byte of each half beyond ASCII.
    /// Space and tab are left to Kestrel's own parser, which refuses them.</summary>
    private const string NotTokenCharacters = "\"(),/;<=>?@[\\]{}\x7f\x01\x1f\x80\xff";

    private static readonly string[] KnownMethods = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"];

    public static IEnumerable<SyntaxCase> For(ServiceRole role, string writePath, string contentType, byte[] valid)
    {
        string Head(string method, string path, string extra) =>
            $"{method} {path} HTTP/1.1\r\nHost: ingest\r\n{extra}Content-Type: {contentType}\r\nContent-Length: {valid.Length}\r\nConnection: close\r\n\r\n";

        foreach (var c in NotTokenCharacters)
        {
            var name = $"X-Bad{c}Name";
            yield return new($"a field name holding \\x{(int)c:X2}", Head("POST", writePath, $"{name}: v\r\n"), valid, 400, "malformed-request");
        }

        yield return new("a field name that ends in '<Name>' and DEL", Head("POST", writePath, "X-Bad<Name>\x7f: v\r\n"), valid, 400, "malformed-request");
        yield return new("an empty field name", Head("POST", writePath, ": v\r\n"), valid, 400, "malformed-request");
        yield return new("a bad field name among good ones", Head("POST", writePath, "Accept: */*\r\nX-Good: 1\r\nX-B@d: 2\r\nUser-Agent: t\r\n"), valid, 400, "malformed-request");

        // Every route of the role, each with the methods it answers (docs/contract.md#methods), and a path that is none.
        (string Path, string Allow)[] routes = role == ServiceRole.FrontEnd
            ? [(writePath, "POST"), ("/plaintext", "GET, HEAD"), ("/json", "GET, HEAD"), ("/api/values/1", "GET, HEAD"), ("/healthz", "GET, HEAD"), ("/status", "GET, HEAD")]
            : [(writePath, "POST"), ("/ingest/stats", "GET, HEAD"), ("/healthz", "GET, HEAD"), ("/", "GET, HEAD")];
        foreach (var (path, allow) in routes)
        {
            foreach (var method in KnownMethods.SelectMany(static m => new[] { m.ToLowerInvariant(), m[0] + m[1..].ToLowerInvariant() }).Append("pOsT").Append("FOO").Append("foo"))
            {
                yield return new($"{method} {path}", Head(method, path, ""), valid, 405, "method-not-allowed", allow);
            }
        }

        foreach (var method in new[] { "post", "get", "Post" })
        {
            yield return new($"{method} on a path that is no route", Head(method, "/no-such-route", ""), valid, 404, "not-found");
        }
    }
}

/// <summary>One request of <see cref="SyntaxFaults"/> and the answer the contract gives it.</summary>
internal sealed record SyntaxCase(string Name, string Head, byte[] Body, int Status, string Problem, string? Allow = null)
{
    public byte[] Request => [.. Encoding.Latin1.GetBytes(Head), .. Body];

    public override string ToString() => Name;
}
