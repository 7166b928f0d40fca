using System.Runtime;

namespace Ingest.LoadGen.Tests;

/// <summary>The smallest realistic Kestrel target: GET /plaintext answers "Hello, World!" (TechEmpower's
/// plaintext shape). Used to compare the load generator with wrk on the same server.</summary>
internal static class PlaintextServer
{
    public static async Task RunAsync(string url)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.UseUrls(url);
        await using var app = builder.Build();
        app.MapGet("/plaintext", () => Results.Text("Hello, World!", "text/plain"));
        await app.StartAsync();
        Console.WriteLine($"Plaintext server on {url}/plaintext; GC: {(GCSettings.IsServerGC ? "Server" : "Workstation")}. Ctrl+C stops it.");
        await app.WaitForShutdownAsync();
    }
}
