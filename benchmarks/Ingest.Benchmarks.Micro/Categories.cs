namespace Ingest.Benchmarks.Micro;

/// <summary>The areas a run can be narrowed to: <c>--anyCategories Serialization</c>.</summary>
public static class Categories
{
    /// <summary>A request body to the forward body, through the production reader and writer, per serializer and payload.</summary>
    public const string Serialization = "Serialization";

    /// <summary>The classic payload's path split into its steps, per serializer: where its time and bytes go.</summary>
    public const string Steps = "Steps";

    /// <summary>Validation and normalisation of a read event, alone.</summary>
    public const string Validation = "Validation";

    /// <summary>Getting an HttpClient under each strategy, and one forward over loopback with it.</summary>
    public const string HttpClient = "HttpClient";

    /// <summary>One histogram and one counter measurement, and one scrape, per Prometheus exporter: ours, prometheus-net's.</summary>
    public const string Metrics = "Metrics";

    /// <summary>The status page rendered by each view engine (MVC Razor views, RazorSlices), and the last-events ring's cost per request.</summary>
    public const string Pages = "Pages";

    /// <summary>The back-end's idempotency window at its default capacity: a new key remembered (the oldest forgotten), a retried one recognised.</summary>
    public const string Idempotency = "Idempotency";
}
