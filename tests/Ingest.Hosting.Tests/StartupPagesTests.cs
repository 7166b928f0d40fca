using Ingest.Hosting.Internal;
using Ingest.Testing;

namespace Ingest.Hosting.Tests;

/// <summary>
/// Memory:ReleaseStartupPagesAfterSeconds on a real service: it pages out its program's files' read-only mappings once,
/// when the delay has passed, says what it released, and goes on serving (a page it touches again faults back in).
/// How much a Native AOT service gives back is measured in the lab
/// (docs/notebook/lean-services.md#the-programs-own-pages-code-laid-out-by-a-trace-start-up-pages-given-back).
/// </summary>
public sealed class StartupPagesTests
{
    [Fact]
    public async Task AServiceReleasesItsStartupPagesOnceSaysSoAndKeepsServing()
    {
        var logs = new CapturingLoggerProvider();
        await using var service = await ServiceHost.StartAsync(
            ServiceRole.BackEnd,
            new Dictionary<string, string?> { ["Sinks:Default"] = "Null", ["Memory:ReleaseStartupPagesAfterSeconds"] = "1" },
            logs: logs);
        using var client = new HttpClient { BaseAddress = service.BaseAddress };
        Assert.Equal("Healthy", await client.GetStringAsync("/healthz"));

        var deadline = DateTime.UtcNow.AddSeconds(20);
        while (!logs.Messages.Any(Released) && DateTime.UtcNow < deadline)
        {
            await Task.Delay(100);
        }

        var released = Assert.Single(logs.Messages, Released);
        Assert.Contains("the kernel refused 0", released, StringComparison.Ordinal);
        Assert.Equal("Healthy", await client.GetStringAsync("/healthz"));
        Assert.Empty(logs.Errors);
    }

    [Fact]
    public async Task WithoutTheSettingNothingIsReleased()
    {
        var logs = new CapturingLoggerProvider();
        await using var service = await ServiceHost.StartAsync(ServiceRole.BackEnd, new Dictionary<string, string?> { ["Sinks:Default"] = "Null" }, logs: logs);
        using var client = new HttpClient { BaseAddress = service.BaseAddress };

        Assert.Equal("Healthy", await client.GetStringAsync("/healthz"));
        await Task.Delay(1500);

        Assert.DoesNotContain(logs.Messages, Released);
    }

    [Fact]
    public void TheReleaseCoversTheProgramsReadOnlyMappingsAndTheKernelTakesThem()
    {
        var (mappings, bytes, refused) = StartupPages.Release();

        // This test host's program is the dotnet host, whose folder holds the shared runtime: the host's and the runtime's
        // code and read-only data, and the framework's assemblies, are dozens of mappings.
        Assert.True(mappings >= 20, $"{mappings} mappings");
        Assert.True(bytes > 0);
        Assert.Equal(0, refused);
    }

    private static bool Released(string message) => message.StartsWith("Released the start-up pages of the program's files", StringComparison.Ordinal);
}
