namespace Ingest.Core.Forwarding;

/// <summary>Where an HttpClient strategy's client for a forward comes from, and what happens to it after.</summary>
internal interface IBackEndClientSource
{
    HttpClient Acquire();

    void Release(HttpClient client);
}
