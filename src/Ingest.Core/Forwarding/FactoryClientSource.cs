using Microsoft.Extensions.DependencyInjection;

namespace Ingest.Core.Forwarding;

/// <summary>Resolves the typed <see cref="BackEndHttpClient"/> per forward, as a controller or handler
/// injecting it would: IHttpClientFactory hands out a new HttpClient over a pooled, rotated handler.</summary>
internal sealed class FactoryClientSource(IServiceProvider services) : IBackEndClientSource
{
    public HttpClient Acquire() => services.GetRequiredService<BackEndHttpClient>().Http;

    // The factory owns the handler; disposing the client would be harmless, not disposing it is the idiom.
    public void Release(HttpClient client)
    {
    }
}
