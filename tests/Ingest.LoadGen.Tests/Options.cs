namespace Ingest.LoadGen.Tests;

/// <summary>Options for short, bounded test runs: no warm-up, few threads (the server shares the cores).</summary>
internal static class Options
{
    public static LoadOptions Closed(Uri url, long requests = 10_000_000, double seconds = 20, int connections = 4, int pipeline = 1) => new()
    {
        Url = url,
        Connections = connections,
        Pipeline = pipeline,
        MaxRequests = requests,
        Duration = TimeSpan.FromSeconds(seconds),
        Warmup = TimeSpan.Zero,
        Threads = 2,
        Timeout = TimeSpan.FromSeconds(10),
    };

    public static LoadOptions Open(Uri url, double rate, double seconds, int connections) => new()
    {
        Url = url,
        Rate = rate,
        Connections = connections,
        Duration = TimeSpan.FromSeconds(seconds),
        Warmup = TimeSpan.Zero,
        Threads = 1,
        Timeout = TimeSpan.FromSeconds(10),
    };
}
