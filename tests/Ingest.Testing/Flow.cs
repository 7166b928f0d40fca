using Ingest.Core.Contract;
using Ingest.Hosting;
using Microsoft.Extensions.Logging;

namespace Ingest.Testing;

/// <summary>A back-end and a front-end forwarding to it, both on loopback, and a client for the front-end.</summary>
public sealed class Flow : IAsyncDisposable
{
    private Flow(ServiceHost backEnd, ServiceHost frontEnd)
    {
        BackEnd = backEnd;
        FrontEnd = frontEnd;
        Client = TestClient.Create(frontEnd.BaseAddress);
    }

    public ServiceHost BackEnd { get; }

    public ServiceHost FrontEnd { get; }

    public HttpClient Client { get; }

    /// <summary>Starts the back-end, then the front-end; with <paramref name="logs"/>, both services log into it.</summary>
    public static async Task<Flow> StartAsync(
        FlowConfiguration configuration,
        Dictionary<string, string?>? frontEndExtra = null,
        Dictionary<string, string?>? backEndExtra = null,
        ILoggerProvider? logs = null)
    {
        var backEnd = await ServiceHost.StartAsync(ServiceRole.BackEnd, configuration.BackEnd(backEndExtra), logs: logs);
        try
        {
            var frontEnd = await ServiceHost.StartAsync(ServiceRole.FrontEnd, configuration.FrontEnd([backEnd.BaseAddress], frontEndExtra), logs: logs);
            return new Flow(backEnd, frontEnd);
        }
        catch
        {
            await backEnd.DisposeAsync();
            throw;
        }
    }

    public IngestStats Stats() => BackEnd.Get<BackEndHandler>().Stats();

    public async ValueTask DisposeAsync()
    {
        Client.Dispose();
        await FrontEnd.DisposeAsync();
        await BackEnd.DisposeAsync();
    }
}
