using System.Collections.Concurrent;
using System.Diagnostics;

namespace Ingest.LoadGen.Tests;

/// <summary>
/// A real Kestrel server on 127.0.0.1:0 whose endpoints each exercise one behaviour of the load generator,
/// and count what they saw so tests can check the generator's numbers against the server's.
/// </summary>
public sealed class TestServer : IAsyncDisposable
{
    /// <summary>The fixed service time of /delay.</summary>
    public static readonly TimeSpan Delay = TimeSpan.FromMilliseconds(10);

    private readonly WebApplication _app;
    private long _hits;
    private long _statusCounter;
    private long _stallUntil;
    private long _stored;
    private long _persisted;

    public TestServer()
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        _app = builder.Build();
        _app.MapGet("/plaintext", () => Results.Text("Hello, World!", "text/plain"));
        _app.MapGet("/count", () =>
        {
            Interlocked.Increment(ref _hits);
            return Results.Text("counted", "text/plain");
        });
        _app.MapGet("/chunked", async (HttpContext context) =>
        {
            Interlocked.Increment(ref _hits);
            context.Response.ContentType = "text/plain";
            // No Content-Length and a flush between writes: Kestrel frames the body with chunked coding.
            await context.Response.WriteAsync("first chunk;");
            await context.Response.Body.FlushAsync();
            await context.Response.WriteAsync("second, longer chunk;");
            await context.Response.Body.FlushAsync();
            await context.Response.WriteAsync("third");
        });
        _app.MapGet("/close", (HttpContext context) =>
        {
            Interlocked.Increment(ref _hits);
            context.Response.Headers.Connection = "close";
            return Results.Text("bye", "text/plain");
        });
        _app.MapGet("/status", () =>
        {
            // 200, 404, 503 in turn: N requests give exactly N/3 of each.
            var n = Interlocked.Increment(ref _statusCounter) - 1;
            return Results.StatusCode((n % 3) switch { 0 => 200, 1 => 404, _ => 503 });
        });
        _app.MapGet("/delay", async () =>
        {
            var stall = Volatile.Read(ref _stallUntil) - Stopwatch.GetTimestamp();
            await Task.Delay(stall > 0 ? Stopwatch.GetElapsedTime(0, stall) : Delay);
            return Results.Text("late", "text/plain");
        });
        _app.MapGet("/hang", async (HttpContext context) =>
        {
            await Task.Delay(Timeout.Infinite, context.RequestAborted).ContinueWith(_ => { }, TaskScheduler.Default);
        });
        _app.MapPost("/body", async (HttpContext context) =>
        {
            Interlocked.Increment(ref _hits);
            using var reader = new StreamReader(context.Request.Body);
            var body = await reader.ReadToEndAsync();
            BodiesBySize.AddOrUpdate(body.Length, 1, (_, n) => n + 1);
            ContentTypes.AddOrUpdate(context.Request.ContentType ?? "", 1, (_, n) => n + 1);
            TestHeaders.AddOrUpdate(context.Request.Headers["X-Test"].ToString(), 1, (_, n) => n + 1);
            return Results.Ok();
        });

        // A stand-in for the Ingest back-end's two routes the loss check touches: every request carries
        // EventsPerStore events and is acknowledged with 202; with DropOneIn set, that one is never counted.
        _app.MapPost("/ingest/data", () =>
        {
            var n = Interlocked.Increment(ref _stored);
            if (DropOneIn == 0 || n % DropOneIn != 0)
            {
                Interlocked.Add(ref _persisted, EventsPerStore);
            }

            return Results.StatusCode(StatusCodes.Status202Accepted);
        });
        _app.MapGet("/ingest/stats", () => Results.Json(new Dictionary<string, long> { ["total"] = Interlocked.Read(ref _persisted) }));
    }

    /// <summary>Events each request to /ingest/data persists. Defaults to 1.</summary>
    public int EventsPerStore { get; set; } = 1;

    /// <summary>/ingest/data acknowledges every request but persists none of one in this many (0: never drops).</summary>
    public int DropOneIn { get; set; }

    public Uri BaseUrl { get; private set; } = null!;

    /// <summary>Requests handled by /count, /chunked, /close and /body.</summary>
    public long Hits => Interlocked.Read(ref _hits);

    public ConcurrentDictionary<int, int> BodiesBySize { get; } = new();

    public ConcurrentDictionary<string, int> ContentTypes { get; } = new();

    public ConcurrentDictionary<string, int> TestHeaders { get; } = new();

    public static async Task<TestServer> StartAsync()
    {
        var server = new TestServer();
        await server._app.StartAsync();
        server.BaseUrl = new Uri(server._app.Urls.First());
        return server;
    }

    public Uri Url(string path) => new(BaseUrl, path);

    /// <summary>One request to every endpoint that tests time (first calls JIT-compile Kestrel's paths),
    /// with counters reset afterwards.</summary>
    public async Task WarmUpAsync()
    {
        using var client = new HttpClient();
        foreach (var path in new[] { "/plaintext", "/count", "/chunked", "/delay", "/status" })
        {
            using var response = await client.GetAsync(Url(path));
        }

        Interlocked.Exchange(ref _hits, 0);
        Interlocked.Exchange(ref _statusCounter, 0);
    }

    /// <summary>From now on, /delay holds every request until <paramref name="duration"/> has passed.</summary>
    public void StallFor(TimeSpan duration) =>
        Volatile.Write(ref _stallUntil, Stopwatch.GetTimestamp() + (long)(duration.TotalSeconds * Stopwatch.Frequency));

    public async ValueTask DisposeAsync() => await _app.DisposeAsync();
}
