using Ingest.LoadGen.Internal;

namespace Ingest.LoadGen;

/// <summary>Runs HTTP/1.1 load in process: the engine behind the command line, for the lab to call directly.</summary>
public static class LoadRunner
{
    /// <summary>
    /// Runs a warm-up, then the measured phase, and returns what was measured. Ends by itself at
    /// <see cref="LoadOptions.Duration"/> or <see cref="LoadOptions.MaxRequests"/>; cancelling
    /// <paramref name="cancellationToken"/> ends it early and still returns the result (with
    /// <see cref="LoadStopReason.Cancelled"/>). Linux only (the engine uses epoll).
    /// </summary>
    /// <exception cref="ArgumentException">The options are invalid; the message lists every problem.</exception>
    /// <exception cref="PlatformNotSupportedException">Not running on Linux.</exception>
    public static Task<LoadResult> RunAsync(LoadOptions options, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(options);
        return LoadEngine.RunAsync(options, cancellationToken);
    }
}
