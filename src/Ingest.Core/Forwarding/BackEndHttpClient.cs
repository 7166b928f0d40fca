namespace Ingest.Core.Forwarding;

/// <summary>The typed client IHttpClientFactory creates for <see cref="ClientStrategy.Factory"/>.</summary>
public sealed class BackEndHttpClient(HttpClient http)
{
    public HttpClient Http { get; } = http;
}
