using Ingest.Core.Sinks;
using Microsoft.Extensions.Hosting;

namespace Ingest.Storage.Internal;

/// <summary>Runs the start-up work of the stores in use (tables, directories, a first PING) before the back-end
/// serves; a store that cannot be reached stops the start with a message naming the key to fix.</summary>
internal sealed class StoreStartup(SinkRouter router) : IHostedService
{
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        foreach (var sink in router.Sinks)
        {
            if (sink is IStoreInitializer store)
            {
                await store.InitializeAsync(cancellationToken);
            }
        }
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
