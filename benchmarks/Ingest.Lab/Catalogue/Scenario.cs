namespace Ingest.Lab.Catalogue;

/// <summary>One measurement of the lab: who serves, behind what, under which load.</summary>
internal sealed record Scenario(string Set, string Name, string Title)
{
    public required ServiceSpec FrontEnd { get; init; }

    /// <summary>The back-end the front-end forwards to; null for scenarios that do not forward (micro endpoints).</summary>
    public ServiceSpec? BackEnd { get; init; }

    public int FrontEndInstances { get; init; } = 1;

    public FrontDoor FrontDoor { get; init; } = FrontDoor.Direct;

    public required LoadSpec Load { get; init; }

    /// <summary>The stores the back-end writes to, started before it and stopped after it.</summary>
    public IReadOnlyList<StoreKind> Stores { get; init; } = [];

    /// <summary>Warm-up this scenario needs at the least, whatever the run's --warmup says: the blocking client
    /// strategy serves almost nothing until the thread pool has grown a thread per waiting request.</summary>
    public TimeSpan MinimumWarmup { get; init; }

    /// <summary>How long the load waits for an answer when nothing longer is needed.</summary>
    public static readonly TimeSpan DefaultResponseTimeout = TimeSpan.FromSeconds(10);

    /// <summary>
    /// How long the load waits for each answer: longer than a .NET front-end's own forward deadline
    /// (<c>Forwarding:TimeoutMilliseconds</c>, e.g. raised by <c>run --front-end</c>), so a slow forward ends as the
    /// front-end's 504 rather than the load giving up on it first; <see cref="DefaultResponseTimeout"/> at the least.
    /// </summary>
    public TimeSpan ResponseTimeout
    {
        get
        {
            var key = Core.Forwarding.ForwardingOptions.SectionName + ":" + nameof(Core.Forwarding.ForwardingOptions.TimeoutMilliseconds);
            var past = FrontEnd.Implementation == Implementation.DotNet
                && FrontEnd.Settings.TryGetValue(key, out var text)
                && int.TryParse(text, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var milliseconds)
                    ? TimeSpan.FromMilliseconds(milliseconds) + TimeSpan.FromSeconds(5)
                    : TimeSpan.Zero;
            return past > DefaultResponseTimeout ? past : DefaultResponseTimeout;
        }
    }

    /// <summary>The scenario's name within the run: set/name.</summary>
    public string Id => $"{Set}/{Name}";
}
