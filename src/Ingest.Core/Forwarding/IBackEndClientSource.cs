namespace Ingest.Core.Forwarding;

/// <summary>One <see cref="ClientStrategy"/>: where the client for a forward comes from and what happens to it after.</summary>
public interface IBackEndClientSource
{
    ClientStrategy Strategy { get; }

    HttpClient Acquire();

    void Release(HttpClient client);
}
