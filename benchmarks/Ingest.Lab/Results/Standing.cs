namespace Ingest.Lab.Results;

/// <summary>How a subject stands against its baseline, called from the interval, never from the ratio alone.</summary>
internal enum Standing
{
    /// <summary>The whole interval is above 1.</summary>
    Ahead,

    /// <summary>The interval holds 1: the difference is within what the rounds can tell apart.</summary>
    Level,

    /// <summary>The whole interval is below 1.</summary>
    Behind,

    /// <summary>Too few measurements on one side for an interval (fewer than two).</summary>
    Undecided,
}
