namespace Ingest.Lab.Catalogue;

/// <summary>The request bodies a scenario can send (all from <see cref="Core.Samples.SamplePayloads"/>).</summary>
internal enum PayloadKind
{
    /// <summary>A GET: no body.</summary>
    None,

    /// <summary>The 2016 classic payload, one event.</summary>
    Classic,

    /// <summary>A JSON array of 100 mixed events.</summary>
    Batch100,

    /// <summary>The same 100 events as NDJSON.</summary>
    Batch100Ndjson,
}
