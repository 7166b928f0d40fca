namespace Ingest.Core.Problems;

/// <summary>
/// An RFC 9457 problem-details body, as every Ingest error answer carries it
/// (<c>application/problem+json</c>). Only wire members are properties, so all three serializers
/// write it the same way; <see cref="Kind"/> is a method to keep it off the wire.
/// </summary>
public sealed class IngestProblem
{
    public const string MediaType = "application/problem+json";

    private const string TypePrefix = "urn:ingest:problem:";

    /// <summary>Used only by serializers that need a parameterless constructor to read problems back.</summary>
    public IngestProblem()
    {
    }

    private IngestProblem(ProblemKind kind, string detail, string? field)
    {
        var (status, slug, title) = Describe(kind);
        Type = TypePrefix + slug;
        Title = title;
        Status = status;
        Detail = detail;
        Field = field;
    }

    public string Type { get; set; } = "";

    public string Title { get; set; } = "";

    public int Status { get; set; }

    public string Detail { get; set; } = "";

    /// <summary>JSON path of the member at fault (<c>$[3].job_id</c>), when there is one.</summary>
    public string? Field { get; set; }

    private int? _retryAfterSeconds;

    private string? _allow;

    public static IngestProblem Create(ProblemKind kind, string detail, string? field = null) => new(kind, detail, field);

    public static IngestProblem Overloaded(string detail, int retryAfterSeconds) => WithRetryAfter(ProblemKind.Overloaded, detail, retryAfterSeconds);

    /// <summary>A problem the client should retry after <paramref name="retryAfterSeconds"/> (503, 429).</summary>
    public static IngestProblem WithRetryAfter(ProblemKind kind, string detail, int retryAfterSeconds) =>
        new(kind, detail, null) { _retryAfterSeconds = retryAfterSeconds };

    /// <summary>A 503 for a store that cannot take events now (down, unreachable, failing): nothing of the
    /// request was acknowledged, and the caller should retry after <paramref name="retryAfterSeconds"/>.</summary>
    public static IngestProblem StoreUnavailable(string detail, int retryAfterSeconds) => WithRetryAfter(ProblemKind.StoreUnavailable, detail, retryAfterSeconds);

    /// <summary>A 405 for a resource that exists but answers only <paramref name="allow"/>, an Allow header value
    /// such as <c>GET, HEAD</c> (RFC 9110 §15.5.6: a 405 must carry Allow).</summary>
    public static IngestProblem MethodNotAllowed(string detail, string allow) =>
        new(ProblemKind.MethodNotAllowed, detail, null) { _allow = allow };

    /// <summary>The methods the resource answers, for a 405; sent as the Allow header, not in the body (a method,
    /// so no serializer writes it).</summary>
    public string? Allow() => _allow;

    /// <summary>Seconds a client should wait before retrying; sent as the Retry-After header, not in the body
    /// (a method, so no serializer writes it).</summary>
    public int? RetryAfterSeconds() => _retryAfterSeconds;

    /// <summary>The kind this problem was created with, recovered from its type URI.</summary>
    public ProblemKind Kind()
    {
        foreach (var kind in Enum.GetValues<ProblemKind>())
        {
            if (Type.AsSpan(TypePrefix.Length).SequenceEqual(Describe(kind).Slug))
            {
                return kind;
            }
        }

        throw new InvalidOperationException($"'{Type}' is not an Ingest problem type.");
    }

    private static (int Status, string Slug, string Title) Describe(ProblemKind kind) => kind switch
    {
        ProblemKind.EmptyBody => (400, "empty-body", "The request has no events."),
        ProblemKind.MalformedJson => (400, "malformed-json", "The body is not well-formed JSON."),
        ProblemKind.InvalidField => (400, "invalid-field", "A field has an invalid value."),
        ProblemKind.MissingField => (400, "missing-field", "A required field is missing."),
        ProblemKind.UnknownType => (400, "unknown-type", "The event type is not known."),
        ProblemKind.PayloadTooLarge => (413, "payload-too-large", "The request is too large."),
        ProblemKind.RequestTimeout => (408, "request-timeout", "The request body arrived too slowly."),
        ProblemKind.UnsupportedMediaType => (415, "unsupported-media-type", "The content type is not supported."),
        ProblemKind.Overloaded => (503, "overloaded", "The service is overloaded; retry later."),
        ProblemKind.StoreUnavailable => (503, "store-unavailable", "The store is unavailable; retry later."),
        ProblemKind.Unauthorized => (401, "unauthorized", "The request lacks a valid key."),
        ProblemKind.TooManyRequests => (429, "too-many-requests", "Too many requests on this connection; slow down."),
        ProblemKind.BackEndFailed => (502, "backend-failed", "The back-end did not accept the events."),
        ProblemKind.BackEndTimeout => (504, "backend-timeout", "The back-end did not answer in time."),
        ProblemKind.NotFound => (404, "not-found", "There is nothing at this address."),
        ProblemKind.MethodNotAllowed => (405, "method-not-allowed", "This address does not answer this method."),
        ProblemKind.MalformedRequest => (400, "malformed-request", "The request is not valid HTTP."),
        _ => throw new ArgumentOutOfRangeException(nameof(kind), kind, null),
    };
}
