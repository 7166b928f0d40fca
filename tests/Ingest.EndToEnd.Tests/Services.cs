using System.Globalization;
using Ingest.Lab.Catalogue;
using Ingest.Lab.Processes;
using Ingest.Lab.Running;

namespace Ingest.EndToEnd.Tests;

/// <summary>Publishes the services and the load generator once for the assembly (<see cref="PublishedServices"/>), and starts them as real processes.</summary>
public sealed class Services : IDisposable
{
    public Services()
    {
        Layout = RepositoryLayout.Find();
        Publisher = new Publisher(Layout, TextWriter.Null);
        Artifacts = new Artifacts(Layout, Publisher, TextWriter.Null, checksOnly: true);
        LoadGenerator = new LoadGenDriver(Artifacts.LoadGeneratorAsync);
        Work = Directory.CreateTempSubdirectory("ingest-e2e-").FullName;
    }

    internal RepositoryLayout Layout { get; }

    internal Publisher Publisher { get; }

    internal Artifacts Artifacts { get; }

    internal LoadGenDriver LoadGenerator { get; }

    public string Work { get; }

    /// <summary>Starts a service of <paramref name="role"/> with settings, waits until it is ready, returns it and its base URL.</summary>
    internal Task<(ServiceProcess Process, Uri Url)> StartAsync(ServiceRole role, params (string Key, string Value)[] settings) =>
        StartAsync(role, NewUrl(), settings);

    /// <summary>A loopback URL on a free port, for a service that must come back on the same address.</summary>
    internal static Uri NewUrl() => new($"http://127.0.0.1:{FreePorts.Next().ToString(CultureInfo.InvariantCulture)}");

    /// <summary>Starts a service of <paramref name="role"/> on <paramref name="url"/> with settings, waits until it is ready.</summary>
    internal async Task<(ServiceProcess Process, Uri Url)> StartAsync(ServiceRole role, Uri url, params (string Key, string Value)[] settings)
    {
        var project = role.Project();
        var dll = await Publisher.PublishAsync(project, CancellationToken.None);
        var arguments = new List<string> { dll, "--urls", url.ToString().TrimEnd('/') };
        foreach (var (key, value) in settings)
        {
            arguments.AddRange([$"--{key}", value]);
        }

        var process = ServiceProcess.Start(role == ServiceRole.FrontEnd ? "front-end" : "back-end", "dotnet", arguments);
        await process.WaitUntilReadyAsync(TimeSpan.FromSeconds(60), CancellationToken.None);
        return (process, url);
    }

    /// <summary>One phase of load against <paramref name="target"/>; the result as the lab keeps it.</summary>
    internal Task<LoadRun> LoadAsync(Uri target, LoadSpec load, TimeSpan duration, Action<int>? onStarted = null)
    {
        var folder = Path.Combine(Work, Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(folder);
        var payload = PayloadFiles.Write(folder, load.Payload);
        var phase = new LoadPhase(target, load, duration, null, payload, Path.Combine(folder, "result.json"), null, folder);
        return LoadGenerator.RunAsync(phase, onStarted ?? (_ => { }), CancellationToken.None);
    }

    public void Dispose() => Directory.Delete(Work, recursive: true);
}
