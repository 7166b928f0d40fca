using Ingest.Core.Sinks;
using Ingest.Testing;

namespace Ingest.Hosting.Tests;

/// <summary>
/// The real back-end under a small GC heap hard limit, as a container's memory limit sets one: left unset, its
/// idempotency window is sized to the memory the GC may use and the start-up line says so; set explicitly past what
/// fits, it refuses to start and names the key. The limit is an environment variable the runtime reads at start, so the
/// back-end runs as a process of its own.
/// </summary>
public sealed class WindowSizingTests
{
    /// <summary>16 MB: below the 40 MB a 200,000-key window needs (four times its 10 MB), above what the back-end needs to run.</summary>
    private const long HardLimit = 0x1000000;

    private static readonly KeyValuePair<string, string>[] SmallHeap = [new("DOTNET_GCHeapHardLimit", $"0x{HardLimit:X}")];

    [Fact]
    public void ABackEndWithoutAConfiguredCapacitySizesItsWindowToTheMemoryItMayUse()
    {
        using var backEnd = BackEndProcess.Start(environment: SmallHeap);

        var fits = new WindowBudget(HardLimit).SizedKeys;
        Assert.True(fits < IdempotencyOptions.MaxSizedCapacity, $"{fits} keys fit {HardLimit} B");
        Assert.Contains("memory=16MB", backEnd.StartupLine, StringComparison.Ordinal);
        Assert.Contains($"window={fits}(sized-to-16MB)", backEnd.StartupLine, StringComparison.Ordinal);
    }

    [Fact]
    public void ABackEndWhoseConfiguredCapacityDoesNotFitRefusesToStartAndNamesTheKey()
    {
        var error = Assert.Throws<InvalidOperationException>(() =>
            BackEndProcess.Start([new("Idempotency:Capacity", "200000")], SmallHeap).Dispose());

        Assert.Contains("exited", error.Message, StringComparison.Ordinal);
        Assert.Contains("Idempotency:Capacity = 200000 does not fit the 16 MB the GC may use", error.Message, StringComparison.Ordinal);
        Assert.Contains($"At most {new WindowBudget(HardLimit).MostKeys} keys fit", error.Message, StringComparison.Ordinal);
    }
}
