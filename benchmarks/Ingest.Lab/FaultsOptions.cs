namespace Ingest.Lab;

/// <summary>What a <c>faults</c> run was asked to do (<see cref="FaultsCommand"/>), bound from its command line
/// (<see cref="Cli.FaultsSymbols"/>). Every problem names its flag.</summary>
internal sealed record FaultsOptions
{
    /// <summary>The faults to run, by name (<c>--only</c>); empty for every one of <see cref="Faults.Fault.For"/>.
    /// Defaults to every one.</summary>
    public IReadOnlyList<string> Only { get; init; } = [];

    /// <summary>How long each fault lasts but the partition, which lasts 10 s (<c>--seconds</c>). Defaults to 10 s.</summary>
    public TimeSpan FaultDuration { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>Steady load before each fault (<c>--before</c>). Defaults to 3 s.</summary>
    public TimeSpan Before { get; init; } = TimeSpan.FromSeconds(3);

    /// <summary>How long after the fault the service must be back to normal for good, from the first second from which
    /// every answer is a 2xx (<c>--recovery</c>); the load goes on for this long and 3 s more, to show it stays so. Defaults
    /// to null: the forward's timeout, or an attempt's timeout and the breaker's break together, whichever is longer, and
    /// 2 s (the timeline's whole seconds, and a SYN lost at the end of the fault).</summary>
    public TimeSpan? Recovery { get; init; }

    /// <summary>The steady load's rate, requests a second, open loop (<c>--rate</c>). Defaults to 200: a fraction of what
    /// one core serves, so what the table shows is the fault's doing.</summary>
    public double Rate { get; init; } = 200;

    /// <summary>The load's connections to the front-end (<c>--connections</c>): enough for every request a fault holds
    /// up to the forward's timeout. Defaults to 100.</summary>
    public int Connections { get; init; } = 100;

    /// <summary>The bandwidth cap, kilobits a second each way (<c>--bandwidth-kbit</c>). Defaults to 256: below what the
    /// load's forwards need, so the cap bites.</summary>
    public int BandwidthKilobits { get; init; } = 256;

    /// <summary>Front-end settings on top of the defaults (<c>--front-end Key=Value</c>), e.g. a shorter breaker.
    /// Defaults to none.</summary>
    public IReadOnlyDictionary<string, string> FrontEndSettings { get; init; } = new Dictionary<string, string>();

    /// <summary>The front-end's deadlines and breaker, which the checks depend on: the defaults with
    /// <see cref="FrontEndSettings"/>.</summary>
    public Core.Forwarding.ForwardingOptions Forwarding()
    {
        var options = new Core.Forwarding.ForwardingOptions();
        options.TimeoutMilliseconds = Setting(nameof(options.TimeoutMilliseconds)) ?? options.TimeoutMilliseconds;
        options.AttemptTimeoutMilliseconds = Setting(nameof(options.AttemptTimeoutMilliseconds)) ?? options.AttemptTimeoutMilliseconds;
        options.BreakerBreakSeconds = Setting(nameof(options.BreakerBreakSeconds)) ?? options.BreakerBreakSeconds;
        options.BreakerSamplingSeconds = Setting(nameof(options.BreakerSamplingSeconds)) ?? options.BreakerSamplingSeconds;
        return options;
    }

    /// <summary>What is wrong with these options as a whole; empty when they can run.</summary>
    public IReadOnlyList<string> Problems()
    {
        var known = Faults.Fault.For(FaultDuration, BandwidthKilobits).Select(f => f.Name).ToHashSet(StringComparer.Ordinal);
        var problems = Only.Where(name => !known.Contains(name)).Select(name => $"faults: --only: no fault '{name}'; the faults are {string.Join(", ", known)}.").ToList();
        foreach (var key in new[] { "TimeoutMilliseconds", "AttemptTimeoutMilliseconds", "BreakerBreakSeconds", "BreakerSamplingSeconds" })
        {
            if (FrontEndSettings.TryGetValue(Section + key, out var value) && !int.TryParse(value, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out _))
            {
                problems.Add($"faults: --front-end {Section}{key} takes a whole number; got '{value}'.");
            }
        }

        return problems;
    }

    private const string Section = Core.Forwarding.ForwardingOptions.SectionName + ":";

    private int? Setting(string key) =>
        FrontEndSettings.TryGetValue(Section + key, out var value) && int.TryParse(value, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var number) ? number : null;
}
