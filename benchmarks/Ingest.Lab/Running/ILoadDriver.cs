using Ingest.Lab.Catalogue;

namespace Ingest.Lab.Running;

/// <summary>Something that puts a scenario's load on a target for a bounded time and reports a <see cref="LoadRun"/>.</summary>
internal interface ILoadDriver
{
    string Name { get; }

    /// <summary>Null when the driver can run here; else why not.</summary>
    Task<string?> UnavailableAsync(CancellationToken cancellationToken);

    /// <summary>Drives one phase; <c>onStarted</c> gets the driver process's id as soon as it runs, so it can be sampled too.</summary>
    Task<LoadRun> RunAsync(LoadPhase phase, Action<int> onStarted, CancellationToken cancellationToken);
}

/// <summary>One phase to drive: target, load, how long, where to put the raw result, and how long a request may wait for
/// its answer (<see cref="Scenario.ResponseTimeout"/>; 10 s when not given).</summary>
internal sealed record LoadPhase(Uri Target, LoadSpec Load, TimeSpan Duration, long? MaxRequests, string PayloadFile, string ResultFile, string? Cpus, string RunFolder,
    TimeSpan? ResponseTimeout = null)
{
    /// <summary>The timeout as the drivers' command lines take it: whole seconds and an "s".</summary>
    public string TimeoutArgument => $"{Math.Ceiling((ResponseTimeout ?? Scenario.DefaultResponseTimeout).TotalSeconds).ToString(System.Globalization.CultureInfo.InvariantCulture)}s";
}
