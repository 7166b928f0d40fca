namespace Ingest.Transports;

/// <summary>Where application code (Kestrel's HTTP parser and the request pipeline) runs when data arrives.</summary>
public enum ApplicationSchedulingMode
{
    /// <summary>On the thread pool: a transport thread never runs application code, so a slow handler cannot stall other connections.</summary>
    ThreadPool,

    /// <summary>Inline on the transport thread: no thread hop per read, but any blocking in the application stalls every connection of that thread.</summary>
    Inline,
}
