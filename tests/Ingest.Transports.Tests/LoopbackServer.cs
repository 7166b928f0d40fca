using System.Net;
using System.Net.Sockets;
using System.Security.Cryptography;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace Ingest.Transports.Tests;

/// <summary>
/// Real Kestrel with the tiny test app, on loopback, with the transport chosen by configuration exactly as an
/// Ingest app chooses it (UseIngestTransport).
/// </summary>
public sealed class LoopbackServer : IAsyncDisposable
{
    /// <summary>Bytes written per WriteAsync by /stream: the pattern repeats every 251 bytes (a prime) so shifted data is caught.</summary>
    public const int StreamChunkSize = 64 * 1024;

    private static readonly byte[] s_streamChunk = CreateStreamChunk();

    private readonly WebApplication _app;

    private LoopbackServer(WebApplication app, TransportVariant variant)
    {
        _app = app;
        Variant = variant;
    }

    public TransportVariant Variant { get; }

    public ServerActivity Activity => _app.Services.GetRequiredService<ServerActivity>();

    public TransportInfo Transport => _app.Services.GetRequiredService<TransportInfo>();

    public LoopConnections Loops => _app.Services.GetRequiredService<LoopConnections>();

    public IReadOnlyList<string> Addresses =>
        [.. _app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses];

    public static async Task<LoopbackServer> StartAsync(
        TransportVariant variant,
        IEnumerable<string> urls,
        IReadOnlyDictionary<string, string?>? extraSettings = null,
        Action<IServiceCollection>? configureServices = null)
    {
        var app = Build(variant, urls, extraSettings, configureServices);
        try
        {
            await app.StartAsync();
        }
        catch
        {
            await app.DisposeAsync();
            throw;
        }

        return new LoopbackServer(app, variant);
    }

    /// <summary>Builds without starting, for the tests that expect start-up to fail.</summary>
    public static WebApplication Build(
        TransportVariant variant,
        IEnumerable<string> urls,
        IReadOnlyDictionary<string, string?>? extraSettings = null,
        Action<IServiceCollection>? configureServices = null)
    {
        var builder = WebApplication.CreateBuilder();
        builder.Logging.ClearProviders();
        builder.Configuration.AddInMemoryCollection(variant.Settings);
        if (extraSettings is not null)
        {
            builder.Configuration.AddInMemoryCollection(extraSettings);
        }

        builder.WebHost.UseUrls([.. urls]);
        builder.WebHost.ConfigureKestrel(kestrel => kestrel.Limits.MaxRequestBodySize = null);
        builder.WebHost.UseIngestTransport(builder.Configuration);
        builder.Services.AddSingleton<ServerActivity>();
        configureServices?.Invoke(builder.Services);

        var app = builder.Build();
        MapEndpoints(app);
        return app;
    }

    /// <summary>The bound address of the given scheme/host, e.g. the real port behind 127.0.0.1:0.</summary>
    public Uri Address(string host) => new(Addresses.First(address => address.Contains(host, StringComparison.Ordinal)));

    public IPEndPoint EndPoint(IPAddress address)
    {
        var host = address.AddressFamily == AddressFamily.InterNetworkV6 ? $"[{address}]" : address.ToString();
        return new IPEndPoint(address, Address(host).Port);
    }

    public Task StopAsync() => _app.StopAsync();

    public async ValueTask DisposeAsync() => await _app.DisposeAsync();

    private static void MapEndpoints(WebApplication app)
    {
        app.MapGet("/hello", () => "hello");
        app.MapGet("/transport", (TransportInfo transport) => transport.Name);
        app.MapGet("/seq/{n:int}", (int n) => n.ToString(System.Globalization.CultureInfo.InvariantCulture));

        // Echoes the request body as it arrives.
        app.MapPost("/echo", async (HttpContext context) =>
        {
            context.Response.ContentType = "application/octet-stream";
            await context.Request.Body.CopyToAsync(context.Response.Body, context.RequestAborted);
        });

        // SHA-256 and length of the request body, read through the body pipe.
        app.MapPost("/hash", async (HttpContext context) =>
        {
            using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
            var reader = context.Request.BodyReader;
            long length = 0;
            while (true)
            {
                var result = await reader.ReadAsync(context.RequestAborted);
                foreach (var segment in result.Buffer)
                {
                    hash.AppendData(segment.Span);
                    length += segment.Length;
                }

                reader.AdvanceTo(result.Buffer.End);
                if (result.IsCompleted)
                {
                    break;
                }
            }

            return $"{Convert.ToHexString(hash.GetHashAndReset())}:{length}";
        });

        // A large response streamed in chunks, with a Content-Length so the client can check it got everything.
        app.MapGet("/stream", async (HttpContext context, ServerActivity activity, int mb) =>
        {
            var total = (long)mb * 1024 * 1024;
            context.Response.ContentLength = total;
            context.Response.ContentType = "application/octet-stream";

            // Kestrel aborts the request when the transport reports the connection gone: that is the signal the
            // abort tests wait for (the writes themselves may fail or, once the output is closed, be discarded).
            context.RequestAborted.Register(static state => ((ServerActivity)state!).Aborted(), activity);
            for (long sent = 0; sent < total && !context.RequestAborted.IsCancellationRequested; sent += StreamChunkSize)
            {
                await context.Response.Body.WriteAsync(s_streamChunk, context.RequestAborted);
            }
        });

        // A request that stays in flight for a while (graceful shutdown).
        app.MapGet("/slow", async (ServerActivity activity, int ms) =>
        {
            activity.Started();
            try
            {
                await Task.Delay(ms);
                return "slow";
            }
            finally
            {
                activity.Finished();
            }
        });
    }

    private static byte[] CreateStreamChunk()
    {
        var chunk = new byte[StreamChunkSize];
        for (var i = 0; i < chunk.Length; i++)
        {
            chunk[i] = StreamByte(i);
        }

        return chunk;
    }

    /// <summary>The byte /stream sends at <paramref name="offset"/>.</summary>
    public static byte StreamByte(long offset) => (byte)(offset % StreamChunkSize % 251);
}
