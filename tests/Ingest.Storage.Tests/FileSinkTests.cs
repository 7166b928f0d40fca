using System.Net;
using System.Text.Json;
using Ingest.Testing;

namespace Ingest.Storage.Tests;

/// <summary>The file sink on a real directory: a line per acknowledged event in its type's file, whatever the
/// flush policy, and rotation by size.</summary>
public sealed class FileSinkTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("ingest-files-").FullName;

    public static TheoryData<FileFlushPolicy> Policies() => [.. Enum.GetValues<FileFlushPolicy>()];

    [Theory]
    [MemberData(nameof(Policies))]
    public async Task EveryAcknowledgedEventIsALineInItsTypesFile(FileFlushPolicy policy)
    {
        await using (var flow = await Flow.StartAsync(new FlowConfiguration(), backEndExtra: new()
        {
            ["Sinks:Default"] = "File",
            ["Sinks:File:Directory"] = _directory,
            ["Sinks:File:Flush"] = policy.ToString(),
            ["Sinks:File:FlushIntervalMilliseconds"] = "50",
        }))
        {
            using var client = TestClient.Create(flow.FrontEnd.BaseAddress);
            var traffic = new Traffic(client);

            await traffic.SendAsync(requests: 200);

            Assert.Empty(traffic.Unexpected);
            Assert.Equal(200, traffic.Answered(HttpStatusCode.OK));
            var stats = flow.Stats();
            // Read while the back-end runs: an acknowledged batch is in the file already, whatever the policy.
            Assert.Equal(stats.ByType.Job, Lines("job").Count);
            Assert.Equal(stats.ByType.Metric, Lines("metric").Count);
            Assert.Equal(stats.ByType.Log, Lines("log").Count);
        }

        foreach (var line in Lines("metric"))
        {
            using var json = JsonDocument.Parse(line);
            Assert.Equal("metric", json.RootElement.GetProperty("type").GetString());
            Assert.Equal("cpu", json.RootElement.GetProperty("name").GetString());
            Assert.True(json.RootElement.TryGetProperty("received_at", out _));
        }
    }

    [Fact]
    public async Task FilesRotateBeforeTheyPassTheSizeAndARestartAppendsToTheNewest()
    {
        const int RotateBytes = 8_192;
        var settings = new Dictionary<string, string?>
        {
            ["Sinks:Default"] = "File",
            ["Sinks:File:Directory"] = _directory,
            ["Sinks:File:RotateBytes"] = RotateBytes.ToString(System.Globalization.CultureInfo.InvariantCulture),
        };
        await using (var flow = await Flow.StartAsync(new FlowConfiguration(), backEndExtra: settings))
        {
            using var client = TestClient.Create(flow.FrontEnd.BaseAddress);
            await new Traffic(client).SendAsync(requests: 200, connections: 1);
        }

        var files = Directory.GetFiles(_directory, "job-*.ndjson").Order(StringComparer.Ordinal).ToList();
        Assert.True(files.Count > 3, $"{files.Count} job files");
        Assert.All(files, f => Assert.InRange(new FileInfo(f).Length, 1, RotateBytes));
        Assert.Equal("job-000001.ndjson", Path.GetFileName(files[0]));
        Assert.Equal(200 * Traffic.PerRequest.Job, Lines("job").Count);

        await using (var flow = await Flow.StartAsync(new FlowConfiguration(), backEndExtra: settings))
        {
            using var client = TestClient.Create(flow.FrontEnd.BaseAddress);
            await new Traffic(client).SendAsync(requests: 1, connections: 1);
        }

        Assert.Equal(400 + Traffic.PerRequest.Job, Lines("job").Count);
        Assert.Equal(files.Count, Directory.GetFiles(_directory, "job-*.ndjson").Length);
    }

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    private List<string> Lines(string type) =>
        [.. Directory.GetFiles(_directory, type + "-*.ndjson").SelectMany(File.ReadLines).Where(l => l.Length > 0)];
}
