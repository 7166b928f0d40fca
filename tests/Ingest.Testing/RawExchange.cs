namespace Ingest.Testing;

/// <summary>Everything a server sent on one connection after a hand-written request: the final responses in order (the
/// last one possibly cut short), and whether it closed the connection (false: it was still open when the client stopped
/// waiting).</summary>
public sealed record RawExchange(IReadOnlyList<RawResponse> Responses, bool Closed)
{
    /// <summary>The first response, or null when the server closed without answering.</summary>
    public RawResponse? First => Responses.Count > 0 ? Responses[0] : null;

    public override string ToString() =>
        $"{(Responses.Count == 0 ? "no response" : string.Join(", ", Responses.Select(static r => r.Status)))}, {(Closed ? "closed" : "left open")}";
}
