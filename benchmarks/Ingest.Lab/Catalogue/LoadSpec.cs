namespace Ingest.Lab.Catalogue;

/// <summary>The load of a scenario: what is requested, over how many connections, closed or open loop.</summary>
internal sealed record LoadSpec(string Path, PayloadKind Payload, int Connections)
{
    public string Method => Payload == PayloadKind.None ? "GET" : "POST";

    /// <summary>HTTP/1.1 pipelining depth; 1 = none.</summary>
    public int Pipeline { get; init; } = 1;

    /// <summary>Requests per second for an open-loop run; null = closed loop (each connection sends as soon as it is answered).</summary>
    public double? Rate { get; init; }

    public string ContentType => Payload == PayloadKind.Batch100Ndjson ? "application/x-ndjson" : "application/json";

    /// <summary>Events one acknowledged request puts into the back-end: the loss check multiplies by it.</summary>
    public int EventsPerRequest => Payload switch
    {
        PayloadKind.Batch100 or PayloadKind.Batch100Ndjson => 100,
        PayloadKind.Classic => 1,
        _ => 0,
    };

    public string Describe() =>
        $"{Method} {Path}{(Payload == PayloadKind.None ? "" : " " + Payload)} c={Connections}" +
        (Pipeline > 1 ? $" pipeline={Pipeline}" : "") + (Rate is { } r ? $" rate={r}/s" : "");
}
