using System.Diagnostics;
using System.Globalization;
using System.Net.Http.Headers;
using System.Text;
using Ingest.Core.Samples;
using Ingest.Lab.Processes;

namespace Ingest.Lab;

/// <summary>
/// The flow at a glance: publishes both services, starts them as separate processes on free loopback ports,
/// sends a short burst of the 2016 classic payload, and shows what came back and what the back-end persisted.
/// </summary>
internal sealed class Demo(RepositoryLayout layout, TextWriter output)
{
    private const int Requests = 20;
    private static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(60);

    public async Task<int> RunAsync(CancellationToken cancellationToken)
    {
        output.WriteLine("Ingest demo: the 2016 classic flow, front-end -> back-end, on this machine");
        var publisher = new Publisher(layout, output);
        var backEndDll = await publisher.PublishAsync("Ingest.BackEnd", cancellationToken);
        var frontEndDll = await publisher.PublishAsync("Ingest.FrontEnd", cancellationToken);

        var backEndUrl = $"http://127.0.0.1:{FreePorts.Next()}";
        var frontEndUrl = $"http://127.0.0.1:{FreePorts.Next()}";
        await using var backEnd = ServiceProcess.Start("back-end", "dotnet", [backEndDll, "--urls", backEndUrl]);
        await backEnd.WaitUntilReadyAsync(StartTimeout, cancellationToken);
        await using var frontEnd = ServiceProcess.Start("front-end", "dotnet", [frontEndDll, "--urls", frontEndUrl, "--Forwarding:BackEnds:0", backEndUrl]);
        await frontEnd.WaitUntilReadyAsync(StartTimeout, cancellationToken);
        output.WriteLine($"  back-end  {backEndUrl}  pid {backEnd.ProcessId}");
        output.WriteLine($"  front-end {frontEndUrl}  pid {frontEnd.ProcessId}");
        output.WriteLine($"  {LastConfigurationLine(frontEnd)}");

        using var client = new HttpClient { BaseAddress = new Uri(frontEndUrl) };
        output.WriteLine($"  POST /ingest/event x {Requests}: {SamplePayloads.Classic}");
        var acknowledged = 0;
        for (var i = 1; i <= Requests; i++)
        {
            using var content = new StringContent(SamplePayloads.Classic, Encoding.UTF8);
            content.Headers.ContentType = new MediaTypeHeaderValue("application/json");
            var clock = Stopwatch.StartNew();
            using var response = await client.PostAsync("/ingest/event", content, cancellationToken);
            var body = await response.Content.ReadAsStringAsync(cancellationToken);
            var elapsed = clock.Elapsed.TotalMilliseconds;
            acknowledged += response.IsSuccessStatusCode ? 1 : 0;
            output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"    #{i,-3} {(int)response.StatusCode} {body}  {elapsed:0.0} ms"));
        }

        using var backEndClient = new HttpClient { BaseAddress = new Uri(backEndUrl) };
        var stats = await backEndClient.GetStringAsync("/ingest/stats", cancellationToken);
        output.WriteLine($"  back-end GET /ingest/stats: {stats}");
        var persisted = System.Text.Json.JsonDocument.Parse(stats).RootElement.GetProperty("total").GetInt64();
        var verdict = persisted == acknowledged ? "nothing lost" : $"LOST {acknowledged - persisted} events";
        output.WriteLine($"  {Requests} sent, {acknowledged} acknowledged, {persisted} persisted: {verdict}.");
        output.WriteLine("  The full comparison: dotnet run -c Release --project benchmarks/Ingest.Lab -- run");
        return persisted == acknowledged && acknowledged == Requests ? 0 : 1;
    }

    private static string LastConfigurationLine(ServiceProcess service)
    {
        const string Marker = "Ingest listening on";
        var line = service.LastLines(50).Split('\n').LastOrDefault(l => l.Contains(Marker, StringComparison.Ordinal)) ?? "";
        return line.Length == 0 ? "" : line[line.IndexOf(Marker, StringComparison.Ordinal)..];
    }
}
