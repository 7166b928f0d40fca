using Ingest.Transports.Internal;
using Ingest.Transports.Internal.Core;
using Ingest.Transports.Internal.IoUring;

namespace Ingest.Transports.Tests;

/// <summary>The io_uring ring is set up in the mode asked for, and says which one it got.</summary>
public sealed class IoUringRingTests
{
    private static readonly Version DeferTaskRunKernel = new(6, 1);

    [Fact]
    public void DefersTaskRunWhereTheKernelCanAndOnlyWhenAsked()
    {
        Assert.Null(IoUringRing.Probe());
        Assert.Equal(Environment.OSVersion.Version >= DeferTaskRunKernel, IoUringRing.CanDeferTaskRun);

        using (var deferred = IoUringRing.Create(8, deferTaskRun: true))
        {
            Assert.Equal(IoUringRing.CanDeferTaskRun, deferred.DefersTaskRun);
        }

        using var cooperative = IoUringRing.Create(8, deferTaskRun: false);
        Assert.False(cooperative.DefersTaskRun);
    }

    [Fact]
    public void TheStartUpLineNamesTheTaskRunMode()
    {
        var byDefault = TransportBackends.Describe(TransportSettings.From(new IoUringOptions()));
        var deferred = TransportBackends.Describe(TransportSettings.From(new IoUringOptions { DeferTaskRun = true }));

        Assert.EndsWith("task run cooperative)", byDefault, StringComparison.Ordinal);
        Assert.EndsWith(IoUringRing.CanDeferTaskRun ? "task run deferred)" : "task run cooperative)", deferred, StringComparison.Ordinal);
    }
}
