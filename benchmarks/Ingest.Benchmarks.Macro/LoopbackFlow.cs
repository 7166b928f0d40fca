using System.Net.Http.Headers;
using BenchmarkDotNet.Attributes;
using Ingest.Testing;

namespace Ingest.Benchmarks.Macro;

/// <summary>
/// What every macro benchmark shares: a back-end and a front-end on real Kestrel over loopback, configured by the
/// benchmark's parameters, and a client that sends <see cref="Requests"/> requests per operation over
/// <see cref="Connections"/> keep-alive connections, so one operation is a small burst of concurrent load and the
/// reported time is per request (<c>OperationsPerInvoke</c>). Everything runs in this process, so the allocations per
/// request are the client's, the front-end's and the back-end's together; the client's share is the same in every
/// case.
/// </summary>
public abstract class LoopbackFlow
{
    /// <summary>Requests per operation; BenchmarkDotNet divides by it.</summary>
    public const int Requests = 64;

    /// <summary>Requests in flight at once, each on its own keep-alive connection.</summary>
    public const int Connections = 16;

    private static readonly MediaTypeHeaderValue Json = new("application/json");

    private Flow _flow = null!;
    private HttpClient _client = null!;
    private Uri _target = null!;
    private byte[] _body = [];

    /// <summary>Starts the services and sends one burst; a benchmark's [GlobalSetup] returns it.</summary>
    protected async Task StartAsync(FlowConfiguration configuration, string path, byte[]? body)
    {
        _flow = await Flow.StartAsync(configuration);
        _client = new HttpClient(new SocketsHttpHandler { MaxConnectionsPerServer = Connections, UseProxy = false })
        {
            BaseAddress = _flow.FrontEnd.BaseAddress,
        };
        _target = new Uri(_flow.FrontEnd.BaseAddress, path);
        _body = body ?? [];
        // One burst before measuring: connections open, and a configuration that cannot serve fails here, clearly.
        await BurstAsync();
    }

    [GlobalCleanup]
    public async Task Cleanup()
    {
        _client.Dispose();
        await _flow.DisposeAsync();
    }

    /// <summary>Sends <see cref="Requests"/> requests, <see cref="Connections"/> at a time; throws on any non-2xx.</summary>
    protected async Task BurstAsync()
    {
        var workers = new Task[Connections];
        for (var w = 0; w < workers.Length; w++)
        {
            workers[w] = WorkerAsync(Requests / Connections);
        }

        await Task.WhenAll(workers);
    }

    private async Task WorkerAsync(int count)
    {
        for (var i = 0; i < count; i++)
        {
            using var request = new HttpRequestMessage(_body.Length > 0 ? HttpMethod.Post : HttpMethod.Get, _target);
            if (_body.Length > 0)
            {
                request.Content = new ByteArrayContent(_body) { Headers = { ContentType = Json } };
            }

            using var response = await _client.SendAsync(request, HttpCompletionOption.ResponseContentRead);
            if (!response.IsSuccessStatusCode)
            {
                throw new InvalidOperationException($"{request.Method} {_target} answered {(int)response.StatusCode}: {await response.Content.ReadAsStringAsync()}");
            }
        }
    }
}
