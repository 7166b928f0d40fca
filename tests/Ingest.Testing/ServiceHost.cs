using Ingest.Hosting;
using Ingest.Storage;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace Ingest.Testing;

/// <summary>
/// One service on real Kestrel, bound to an ephemeral loopback port, wired exactly as the apps' Program.cs
/// wires it (the same calls), with configuration from the test.
/// </summary>
public sealed class ServiceHost : IAsyncDisposable
{
    private ServiceHost(WebApplication app, Uri baseAddress)
    {
        App = app;
        BaseAddress = baseAddress;
    }

    public WebApplication App { get; }

    public Uri BaseAddress { get; }

    public static async Task<ServiceHost> StartAsync(ServiceRole role, IDictionary<string, string?> settings, string url = "http://127.0.0.1:0", ILoggerProvider? logs = null)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Configuration.AddInMemoryCollection(settings);
        builder.WebHost.UseUrls(url);
        builder.Logging.ClearProviders();
        if (logs is not null)
        {
            builder.Logging.AddProvider(logs);
        }

        AddServices(builder, role);
        var app = builder.Build();
        app.UseIngestMetrics();
        app.MapIngestApi();
        try
        {
            await app.StartAsync();
        }
        catch
        {
            await app.DisposeAsync();
            throw;
        }

        var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
        // A Unix socket address ("http://unix:/path") is no URI a client can use; tests that bind one know their path.
        return new ServiceHost(app, address.Contains("unix:", StringComparison.Ordinal) ? new Uri("http://localhost/") : new Uri(address));
    }

    public T Get<T>()
        where T : notnull => App.Services.GetRequiredService<T>();

    public async ValueTask DisposeAsync()
    {
        await App.StopAsync();
        await App.DisposeAsync();
    }

    /// <summary>The services of <paramref name="role"/>, as its Program.cs adds them.</summary>
    public static void AddServices(WebApplicationBuilder builder, ServiceRole role)
    {
        builder.AddIngestHost(role);
        if (role == ServiceRole.FrontEnd)
        {
            builder.AddIngestForwarding();
        }
        else
        {
            builder.AddIngestSinks();
            builder.AddIngestStorage();
        }

        builder.AddIngestMetrics();
    }
}
