using System.Globalization;
using Ingest.Core.Problems;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;

namespace Ingest.Hosting.Internal;

/// <summary>
/// The contract's routes, named once for all API styles: their paths, which role serves each, the methods each
/// answers, and the answer to a request none takes — 405 with Allow for a route that exists (RFC 9110 §15.5.6),
/// 404 otherwise. Minimal maps the routes with these methods, MVC's <c>RouteMethodsConvention</c> gives its actions
/// them, and the raw style dispatches on <see cref="Match"/>.
/// </summary>
internal static class Routes
{
    public const string IngestEvent = "/ingest/event";
    public const string IngestData = "/ingest/data";
    public const string IngestStats = "/ingest/stats";
    public const string Plaintext = "/plaintext";
    public const string Json = "/json";
    public const string ValuesPrefix = "/api/values/";
    public const string Values = ValuesPrefix + "{id:int}";
    public const string Health = "/healthz";
    public const string Metrics = "/metrics";
    public const string Root = "/";
    public const string Status = "/status";

    public const string ValueText = "value";
    public const string HealthyText = "Healthy";

    // HEAD is served wherever GET is (RFC 9110 §9.3.2): the same headers, and Kestrel sends no body for it.
    private const string ReadAllow = "GET, HEAD";
    private const string WriteAllow = "POST";

    private static readonly string[] s_readMethods = [HttpMethods.Get, HttpMethods.Head];
    private static readonly string[] s_writeMethods = [HttpMethods.Post];

    /// <summary>The methods <paramref name="route"/> (one of the path constants) answers: POST for the write
    /// endpoints, GET and HEAD for every other.</summary>
    public static IReadOnlyList<string> MethodsOf(string route) => route switch
    {
        IngestEvent or IngestData => s_writeMethods,
        IngestStats or Plaintext or Json or Values or Health or Metrics or Root or Status => s_readMethods,
        _ => throw new ArgumentException($"'{route}' is not one of the contract's routes (Routes).", nameof(route)),
    };

    /// <summary>Whether <paramref name="route"/> answers <paramref name="method"/>.</summary>
    public static bool Allows(string route, string method) =>
        IsWrite(route) ? HttpMethods.IsPost(method) : HttpMethods.IsGet(method) || HttpMethods.IsHead(method);

    /// <summary>
    /// The route of <paramref name="role"/> that <paramref name="path"/> names (its path constant, so callers can
    /// switch on it), or null when the role has none (<c>/metrics</c> is answered ahead of the API styles, by
    /// <c>MetricsEndpoint</c>). Endpoint routing compares paths ignoring case, the raw style does not.
    /// </summary>
    public static string? Match(ServiceRole role, string path, StringComparison comparison)
    {
        if (path.Equals(Health, comparison))
        {
            return Health;
        }

        if (path.Equals(Root, comparison) || path.Equals(Status, comparison))
        {
            return path.Length == Root.Length ? Root : Status;
        }

        if (role == ServiceRole.BackEnd)
        {
            return path.Equals(IngestData, comparison) ? IngestData
                : path.Equals(IngestStats, comparison) ? IngestStats
                : null;
        }

        return path.Equals(IngestEvent, comparison) ? IngestEvent
            : path.Equals(Plaintext, comparison) ? Plaintext
            : path.Equals(Json, comparison) ? Json
            : IsValues(path, comparison) ? Values
            : null;
    }

    /// <summary>The answer to a request that no endpoint took: 405 when its path is a route of the role, else 404.</summary>
    public static IngestProblem Unmatched(ServiceRole role, string path, string method, StringComparison comparison) =>
        Match(role, path, comparison) is { } route ? MethodNotAllowed(route, method) : NotFound();

    public static IngestProblem NotFound() =>
        IngestProblem.Create(ProblemKind.NotFound, "No endpoint answers this method and path.");

    public static IngestProblem MethodNotAllowed(string route, string method)
    {
        var allow = IsWrite(route) ? WriteAllow : ReadAllow;
        return IngestProblem.MethodNotAllowed($"{route} does not answer {method}; it answers {allow}.", allow);
    }

    /// <summary>
    /// For the styles on endpoint routing (Minimal, MVC): the fallback endpoint answers what no endpoint matched —
    /// an unknown path, or a known path with a method it does not answer (routing hands both to the fallback, which
    /// matches every method).
    /// </summary>
    public static void MapFallback(IEndpointRouteBuilder app, ServiceRole role)
    {
        var writer = app.ServiceProvider.GetRequiredService<ResponseWriter>();
        // "{*path}", not MapFallback's default "{*path:nonfile}": a path with a dot in its last segment (/favicon.ico)
        // is no route either, and gets the same problem body instead of Kestrel's empty 404.
        app.MapFallback("{*path}", context => writer.WriteProblemAsync(
            context.Response, Unmatched(role, context.Request.Path.Value ?? "", context.Request.Method, StringComparison.OrdinalIgnoreCase)));
    }

    private static bool IsWrite(string route) => route is IngestEvent or IngestData;

    // /api/values/{id:int}: an optional sign and digits that fit an int, as the route constraint.
    private static bool IsValues(string path, StringComparison comparison) =>
        path.StartsWith(ValuesPrefix, comparison)
        && int.TryParse(path.AsSpan(ValuesPrefix.Length), NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out _);
}
