namespace Ingest.Benchmarks.Macro;

/// <summary>The areas a run can be narrowed to: <c>--anyCategories RoundTrip</c>.</summary>
public static class Categories
{
    /// <summary>POST /ingest/event through front-end and back-end, per transport × client strategy × serializer.</summary>
    public const string RoundTrip = "RoundTrip";

    /// <summary>The same round trip per API style (Minimal, Mvc, Raw), the other knobs at their defaults.</summary>
    public const string ApiStyles = "ApiStyles";

    /// <summary>The round trip with the forward over connections the transport's loops own (ClientStrategy LoopDirect) against
    /// the Static client, both services on the same transport with the application inline.</summary>
    public const string Forward = "Forward";

    /// <summary>The classic endpoints <c>/plaintext</c>, <c>/json</c>, <c>/api/values/{id}</c> per API style.</summary>
    public const string Endpoints = "Endpoints";
}
