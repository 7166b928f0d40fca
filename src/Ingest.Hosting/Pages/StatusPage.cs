namespace Ingest.Hosting.Pages;

/// <summary>
/// What a service's status page shows, one model for every view engine (MVC Razor views, RazorSlices) and mirrored
/// by the Go baselines' <c>html/template</c> page, so the pages differ only in what renders them. Public because the
/// RazorSlices proxies generated for the templates are public.
/// </summary>
public sealed class StatusPage
{
    /// <summary>The service's name, as the page's title: "Ingest front-end" or "Ingest back-end".</summary>
    public required string Title { get; init; }

    /// <summary>The view engine that rendered the page (<see cref="StatusPageSource.MvcEngine"/>, <see cref="StatusPageSource.SlicesEngine"/>).</summary>
    public required string Engine { get; init; }

    /// <summary>The start-up line's facts (role, api, transport, serializer, GC, …), secrets left out.</summary>
    public required IReadOnlyList<PageFact> Configuration { get; init; }

    /// <summary>Counters since start: <c>requests</c>, <c>errors.&lt;status&gt;</c>, <c>events.&lt;type&gt;</c>, and
    /// <c>forwards.&lt;outcome&gt;</c> (front-end) or <c>persisted.&lt;sink&gt;</c> (back-end).</summary>
    public required IReadOnlyList<PageFact> Counters { get; init; }

    /// <summary>The last events persisted, newest first; null on the front-end, which keeps none.</summary>
    public IReadOnlyList<PageEvent>? RecentEvents { get; init; }
}
