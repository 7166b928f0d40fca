using Ingest.Lab.Processes;

namespace Ingest.Lab.Tests;

/// <summary>
/// Two publishes of the repository never overlap, whichever processes start them: CI runs the lab's suite beside the
/// end-to-end suite, and a Native AOT publish given an assembly that a second publish was rewriting failed the compile.
/// Publishes for a runtime build in a tree of their own, so they only wait for one another: the Native AOT and the trimmed
/// JIT build share theirs, and their compiles.
/// </summary>
public sealed class PublishLockTests : IDisposable
{
    private readonly RepositoryLayout _layout = new(Directory.CreateTempSubdirectory("ingest-lock-").FullName);

    [Fact]
    public async Task ASecondPublishWaitsForTheFirstToEndAndThenGoesOn()
    {
        var first = await Publisher.PublishLock.TakeAsync(_layout, tree: null, CancellationToken.None);
        var second = Publisher.PublishLock.TakeAsync(_layout, tree: null, CancellationToken.None);

        // However long it is given, the second never gets the turn while the first holds it.
        var ended = await Task.WhenAny(second, Task.Delay(TimeSpan.FromSeconds(1)));
        Assert.NotSame(second, ended);

        await first.DisposeAsync();
        await using var taken = await second.WaitAsync(TimeSpan.FromSeconds(30));
        Assert.True(taken.CanWrite);
    }

    [Fact]
    public async Task APublishForARuntimeHasATreeAndALockOfItsOwn()
    {
        var nativeAot = Publisher.TreeOf(["PublishAot=true", "RuntimeIdentifier=linux-x64", "IngestAotProfile=/tmp/a.mibc"]);
        var selfContained = Publisher.TreeOf(["RuntimeIdentifier=linux-x64", "SelfContained=true"]);
        Assert.Null(Publisher.TreeOf([]));
        Assert.Null(Publisher.TreeOf(["PublishTrimmed=true"]));
        Assert.Equal("linux-x64-trimmed", nativeAot);
        Assert.Equal("linux-x64", selfContained);
        Assert.Equal(nativeAot, Publisher.TreeOf(["RuntimeIdentifier=linux-x64", "PublishAot=true"]));

        await using var frameworkDependent = await Publisher.PublishLock.TakeAsync(_layout, tree: null, CancellationToken.None);
        await using var nativeAotTurn = await Publisher.PublishLock.TakeAsync(_layout, nativeAot, CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(30));
        await using var selfContainedTurn = await Publisher.PublishLock.TakeAsync(_layout, selfContained, CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(30));
        Assert.True(nativeAotTurn.CanWrite && selfContainedTurn.CanWrite);
    }

    /// <summary>The trimmed JIT build is compiled in the Native AOT build's tree with what makes its C# compiles the same
    /// (docs/notebook/ci-time.md#one-tree-for-both-trimmed-builds); that its output leaves out what it must and refuses
    /// what needs reflection is TrimmedBuildTests', that the Native AOT build serves the aot set's smoke's.</summary>
    [Fact]
    public void TheTrimmedJitBuildSharesTheNativeAotBuildsTreeAndRestore()
    {
        string[] trimmed = ["PublishTrimmed=true", "RuntimeIdentifier=linux-x64", "SelfContained=true"];
        string[] nativeAot = ["PublishAot=true", "RuntimeIdentifier=linux-x64"];
        Assert.Equal(Publisher.TreeOf(nativeAot), Publisher.TreeOf(trimmed));
        Assert.Equal(["-rp:PublishAot=true", "-p:EnableAotAnalyzer=true", "-p:EnableSingleFileAnalyzer=true"], Publisher.CompilesAsNativeAot(trimmed));
        Assert.Empty(Publisher.CompilesAsNativeAot(nativeAot));
        Assert.Empty(Publisher.CompilesAsNativeAot([.. nativeAot, "PublishTrimmed=true"]));
        Assert.Empty(Publisher.CompilesAsNativeAot([]));
    }

    [Fact]
    public async Task AWaitingPublishCanBeCancelled()
    {
        await using var first = await Publisher.PublishLock.TakeAsync(_layout, tree: null, CancellationToken.None);
        using var cancellation = new CancellationTokenSource(TimeSpan.FromMilliseconds(500));
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => Publisher.PublishLock.TakeAsync(_layout, tree: null, cancellation.Token));
    }

    public void Dispose() => Directory.Delete(_layout.Root, recursive: true);
}
