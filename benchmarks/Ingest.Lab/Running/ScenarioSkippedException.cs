namespace Ingest.Lab.Running;

/// <summary>A scenario that cannot run on this machine (a tool or build missing): skipped with this reason, never failed.</summary>
internal sealed class ScenarioSkippedException : Exception
{
    public ScenarioSkippedException()
    {
    }

    public ScenarioSkippedException(string message)
        : base(message)
    {
    }

    public ScenarioSkippedException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
