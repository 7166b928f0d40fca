using BenchmarkDotNet.Attributes;
using Ingest.Core.Sinks;
using Microsoft.Extensions.Options;

namespace Ingest.Benchmarks.Micro;

/// <summary>
/// The back-end's idempotency window as a busy back-end has it: full at the default capacity (200,000 keys), so each
/// new forward's key is remembered and the oldest forgotten; and a retry of a remembered key, recognised without
/// persisting. Keys are our front-ends' (32 lowercase hex digits), made before timing; the persist does nothing.
/// </summary>
[BenchmarkCategory(Categories.Idempotency)]
[MemoryDiagnoser]
public class IdempotencyBenchmarks
{
    private const int Capacity = IdempotencyOptions.MaxSizedCapacity;

    private static readonly Func<CancellationToken, ValueTask> Persist = static _ => ValueTask.CompletedTask;

    /// <summary>Twice the capacity: a key comes round again only after it has been forgotten.</summary>
    private readonly string[] _keys = [.. Enumerable.Range(0, 2 * Capacity).Select(_ => Guid.NewGuid().ToString("N"))];

    private IdempotencyGuard _guard = null!;
    private int _next;

    [GlobalSetup]
    public void Setup()
    {
        _guard = new IdempotencyGuard(Options.Create(new IdempotencyOptions { Capacity = Capacity }), WindowBudget.FromRuntime(), TimeProvider.System);
        while (_next < Capacity)
        {
            Remember();
        }

        if (_guard.Remembered != Capacity || _guard.Duplicates != 0)
        {
            throw new InvalidOperationException($"The window holds {_guard.Remembered} keys ({_guard.Duplicates} duplicates), not {Capacity}.");
        }
    }

    /// <summary>A new forward's key into the full window: the oldest key leaves.</summary>
    [Benchmark(Baseline = true)]
    public void Remember()
    {
        var run = _guard.RunOnceAsync(_keys[_next++ % _keys.Length], Persist, CancellationToken.None);
        if (!run.IsCompletedSuccessfully)
        {
            throw new InvalidOperationException("The persist did not complete synchronously.");
        }
    }

    /// <summary>A retried forward whose key the window remembers (the newest): acknowledged without persisting.</summary>
    [Benchmark]
    public void Recognise()
    {
        var run = _guard.RunOnceAsync(_keys[(_next - 1 + _keys.Length) % _keys.Length], Persist, CancellationToken.None);
        if (!run.IsCompletedSuccessfully)
        {
            throw new InvalidOperationException("The retry was not recognised synchronously.");
        }
    }
}
