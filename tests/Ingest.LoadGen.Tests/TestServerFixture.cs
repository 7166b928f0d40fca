namespace Ingest.LoadGen.Tests;

/// <summary>One Kestrel server per test class: starting it costs more than most tests.</summary>
public sealed class TestServerFixture : IAsyncLifetime
{
    /// <summary>
    /// The test host keeps a few thread-pool threads blocked on its own I/O, and on two cores the pool
    /// starts with two threads and grows by about one every half second: the in-process Kestrel then
    /// answers the first runs hundreds of milliseconds late, which open-loop runs rightly report.
    /// Enough threads from the start keep the tests about the load generator, not the test host.
    /// </summary>
    private const int MinimumPoolThreads = 32;

    public TestServer Server { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        ThreadPool.GetMinThreads(out var workers, out var completionPorts);
        ThreadPool.SetMinThreads(Math.Max(workers, MinimumPoolThreads), Math.Max(completionPorts, MinimumPoolThreads));
        Server = await TestServer.StartAsync();
        await Server.WarmUpAsync();
    }

    public async Task DisposeAsync() => await Server.DisposeAsync();
}
