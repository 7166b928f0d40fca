using System.Collections.Concurrent;
using Ingest.Core.Forwarding;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace Ingest.Hosting.Tests;

/// <summary>
/// A stand-in back-end on real Kestrel over loopback: it records the Idempotency-Key of every forward it receives
/// and answers as the test scripts it (given the 1-based number of the request), so a test can see what the
/// front-end's retries and breaker really send.
/// </summary>
internal sealed class ScriptedBackEnd : IAsyncDisposable
{
    private readonly ConcurrentQueue<string> _keys = new();
    private WebApplication _app = null!;
    private int _requests;

    private ScriptedBackEnd()
    {
    }

    public Uri BaseAddress { get; private set; } = null!;

    /// <summary>Forwards received so far.</summary>
    public int Requests => Volatile.Read(ref _requests);

    /// <summary>The Idempotency-Key of every forward received, in arrival order (empty when a forward had none).</summary>
    public IReadOnlyCollection<string> Keys => _keys;

    public static async Task<ScriptedBackEnd> StartAsync(Func<HttpContext, int, Task> answer)
    {
        var backEnd = new ScriptedBackEnd();
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        builder.Logging.ClearProviders();
        var app = builder.Build();
        app.MapPost(BackEndForwarder.DataPath, async context =>
        {
            backEnd._keys.Enqueue(context.Request.Headers[BackEndForwarder.IdempotencyKeyHeader].ToString());
            await answer(context, Interlocked.Increment(ref backEnd._requests));
        });
        await app.StartAsync();
        backEnd._app = app;
        backEnd.BaseAddress = new Uri(app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First());
        return backEnd;
    }

    /// <summary>Answers with a status (and a Retry-After in seconds, if given) and no body.</summary>
    public static Task Status(HttpContext context, int status, int? retryAfterSeconds = null)
    {
        context.Response.StatusCode = status;
        if (retryAfterSeconds is { } seconds)
        {
            context.Response.Headers.RetryAfter = seconds.ToString(System.Globalization.CultureInfo.InvariantCulture);
        }

        return Task.CompletedTask;
    }

    public async ValueTask DisposeAsync()
    {
        await _app.StopAsync();
        await _app.DisposeAsync();
    }
}
