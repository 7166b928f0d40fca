using Ingest.Transports.Internal.Libuv;

namespace Ingest.Transports.Tests;

/// <summary>The start-up checks say what is missing and how to get it.</summary>
public sealed class TransportProbeTests
{
    [Fact]
    public void MissingLibuvSaysWhichPackageToInstall()
    {
        var reason = LibuvNative.WhyUnavailable(["libuv-not-installed.so.1"]);
        Assert.NotNull(reason);
        Assert.Contains("apt-get install libuv1", reason, StringComparison.Ordinal);
    }

    [Fact]
    public void InstalledLibuvIsFound() => Assert.Null(LibuvNative.WhyUnavailable(LibuvNative.CandidateFiles));
}
