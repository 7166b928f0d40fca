using System.Buffers;
using Ingest.Core.Problems;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Net.Http.Headers;

namespace Ingest.Hosting.Internal;

/// <summary>
/// What Kestrel's parser lets through but HTTP does not, refused ahead of everything else the service serves (a startup
/// filter, so <c>/metrics</c> and the pages too), the same in every API style and on every transport:
/// <list type="bullet">
/// <item>a header whose field name is not a token (RFC 9110 §5.1): <c>400 malformed-request</c> with <c>Connection:
/// close</c> — a proxy in front may have read that header line differently, so nothing more is read from the
/// connection;</item>
/// <item>a method that is a known one in another case (<c>post</c>): methods are case-sensitive (RFC 9110 §9.1), so it is
/// an unknown method, answered as any other (405 with Allow on a route, 404 elsewhere: docs/contract.md#methods), where
/// routing, which compares methods ignoring case, would serve it as POST.</item>
/// </list>
/// </summary>
internal sealed class RequestSyntax(ServiceRole role, ResponseWriter writer, StringComparison pathComparison) : IStartupFilter
{
    /// <summary>tchar (RFC 9110 §5.6.2): the characters of a token.</summary>
    private static readonly SearchValues<char> s_tokenChars =
        SearchValues.Create("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");

    public Action<IApplicationBuilder> Configure(Action<IApplicationBuilder> next) => app =>
    {
        app.Use(next => context => InvokeAsync(context, next));
        next(app);
    };

    public Task InvokeAsync(HttpContext context, RequestDelegate next)
    {
        var request = context.Request;
        var method = request.Method;
        // Kestrel hands a known method as its canonical string; anything else (another case included) as sent.
        if (!string.Equals(HttpMethods.GetCanonicalizedValue(method), method, StringComparison.Ordinal))
        {
            return writer.WriteProblemAsync(context.Response, Routes.Unmatched(role, request.Path.Value ?? "", method, pathComparison));
        }

        // Through the interface: one enumerator a request, the price of a check Kestrel's parser does not make.
        foreach (var header in request.Headers)
        {
            if (header.Key.Length == 0 || header.Key.AsSpan().ContainsAnyExcept(s_tokenChars))
            {
                context.Response.Headers[HeaderNames.Connection] = "close";
                return writer.WriteProblemAsync(context.Response, IngestProblem.Create(ProblemKind.MalformedRequest,
                    $"The header field name '{Printable(header.Key)}' is not a token (RFC 9110 section 5.1)."));
            }
        }

        return next(context);
    }

    /// <summary>The name as a reader can see it: every character outside printable ASCII as \xNN.</summary>
    private static string Printable(string name) =>
        string.Concat(name.Select(c => c is >= ' ' and < '\x7f' ? c.ToString() : $"\\x{(int)c:X2}"));
}
