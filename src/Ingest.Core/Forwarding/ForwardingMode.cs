namespace Ingest.Core.Forwarding;

/// <summary>When the front-end forwards; chosen by <c>Forwarding:Mode</c>.</summary>
public enum ForwardingMode
{
    /// <summary>Each request's events are forwarded as the request arrives, as the original did.</summary>
    PerEvent,

    /// <summary>Events of concurrent requests are gathered by count and time window into one back-end call;
    /// each caller is answered once its own events were acknowledged.</summary>
    Batched,
}
