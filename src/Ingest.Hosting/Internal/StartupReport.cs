using System.Text;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace Ingest.Hosting.Internal;

/// <summary>Logs one line with the whole effective configuration once the server listens, so every log of a
/// measured run says what was measured.</summary>
internal sealed partial class StartupReport(
    IEnumerable<StartupFact> facts,
    IServiceProvider services,
    IServer server,
    IHostApplicationLifetime lifetime,
    ILogger<StartupReport> logger) : IHostedService
{
    public Task StartAsync(CancellationToken cancellationToken)
    {
        lifetime.ApplicationStarted.Register(Report);
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    private void Report()
    {
        if (!logger.IsEnabled(LogLevel.Information))
        {
            return;
        }

        var line = new StringBuilder();
        foreach (var fact in facts)
        {
            line.Append(fact.Name).Append('=').Append(fact.Value(services)).Append(' ');
        }

        var addresses = string.Join(",", server.Features.Get<IServerAddressesFeature>()?.Addresses ?? []);
        var configuration = line.ToString().TrimEnd();
        LogConfiguration(logger, addresses, configuration);
    }

    [LoggerMessage(EventId = 1, Level = LogLevel.Information, Message = "Ingest listening on {Addresses}: {Configuration}")]
    private static partial void LogConfiguration(ILogger logger, string addresses, string configuration);
}
