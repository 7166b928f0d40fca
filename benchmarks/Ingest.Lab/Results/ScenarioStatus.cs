namespace Ingest.Lab.Results;

/// <summary>How a scenario ended.</summary>
internal enum ScenarioStatus
{
    /// <summary>Measured, and the loss check passed.</summary>
    Passed,

    /// <summary>Something went wrong: a service failed, or the loss check found a difference.</summary>
    Failed,

    /// <summary>Could not run on this machine (a tool or build missing); the reason says which.</summary>
    Skipped,
}
