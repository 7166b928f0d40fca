using Ingest.Lab.Processes;

namespace Ingest.Lab.Tests;

/// <summary>
/// Two publishes of the repository never overlap, whichever processes start them: CI runs the lab's suite beside the
/// end-to-end suite, and a Native AOT publish given an assembly that a second publish was rewriting failed the compile.
/// Publishes for a runtime (Native AOT, trimmed) build in a tree of their own, so they only wait for each other.
/// </summary>
public sealed class PublishLockTests : IDisposable
{
    private readonly RepositoryLayout _layout = new(Directory.CreateTempSubdirectory("ingest-lock-").FullName);

    [Fact]
    public async Task ASecondPublishWaitsForTheFirstToEndAndThenGoesOn()
    {
        var first = await Publisher.PublishLock.TakeAsync(_layout, runtime: null, CancellationToken.None);
        var second = Publisher.PublishLock.TakeAsync(_layout, runtime: null, CancellationToken.None);

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
        await using var frameworkDependent = await Publisher.PublishLock.TakeAsync(_layout, runtime: null, CancellationToken.None);
        await using var nativeAot = await Publisher.PublishLock.TakeAsync(_layout, "linux-x64", CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(30));
        Assert.True(nativeAot.CanWrite);
    }

    [Fact]
    public async Task AWaitingPublishCanBeCancelled()
    {
        await using var first = await Publisher.PublishLock.TakeAsync(_layout, runtime: null, CancellationToken.None);
        using var cancellation = new CancellationTokenSource(TimeSpan.FromMilliseconds(500));
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => Publisher.PublishLock.TakeAsync(_layout, runtime: null, cancellation.Token));
    }

    public void Dispose() => Directory.Delete(_layout.Root, recursive: true);
}
