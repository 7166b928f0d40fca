using CsCheck;
using Ingest.Core.Sinks;

namespace Ingest.Core.Tests;

/// <summary>
/// The window's own store of persisted keys against the obvious one (a hash set and a queue): after any sequence of
/// adds, removals of the oldest and growth steps, it holds exactly the same keys in the same order. Small rings and a
/// small pool of keys make the index wrap, its probe runs collide and cross its end, and keys come back after leaving.
/// </summary>
public sealed class KeyWindowTests
{
    /// <summary>Packed keys (lowercase hex), keys kept as text (uppercase hex, other lengths), and one of each pair
    /// differing only in case.</summary>
    private static readonly string[] Pool = [.. Enumerable.Range(0, 24).SelectMany(i =>
    {
        var hex = Guid.NewGuid().ToString("N");
        return i % 3 == 0 ? new[] { hex, hex.ToUpperInvariant() } : i % 3 == 1 ? [hex] : [hex[..(i % 31 + 1)]];
    })];

    private enum Step { Add, RemoveOldest, Grow }

    private static readonly Gen<(Step Step, int Key)> Steps = Gen.Frequency(
        (6, Gen.Int[0, Pool.Length - 1].Select(k => (Step.Add, k))),
        (3, Gen.Const((Step.RemoveOldest, 0))),
        (1, Gen.Int[1, 8].Select(n => (Step.Grow, n))));

    [Fact]
    public void HoldsTheSameKeysInTheSameOrderAsAHashSetAndAQueue() =>
        Steps.Array[1, 400].Sample(steps =>
        {
            var window = new KeyWindow();
            var model = new Queue<(string Key, long At)>();
            long clock = 0;
            foreach (var (step, k) in steps)
            {
                switch (step)
                {
                    case Step.Add when model.Count < window.Room && !model.Any(e => e.Key == Pool[k]):
                        window.Add(WindowKey.From(Pool[k]), ++clock);
                        model.Enqueue((Pool[k], clock));
                        break;
                    case Step.RemoveOldest when model.Count > 0:
                        window.RemoveOldest();
                        model.Dequeue();
                        break;
                    case Step.Grow:
                        window.Grow(window.Room + k);
                        break;
                }

                if (window.Count != model.Count
                    || window.TryPeekOldest(out var at) != model.TryPeek(out var oldest)
                    || (model.Count > 0 && at != oldest.At)
                    || Pool.Any(key => window.Contains(WindowKey.From(key)) != model.Any(e => e.Key == key)))
                {
                    return false;
                }
            }

            return true;
        });

    [Fact]
    public void AddingPastItsRoomIsRefusedAndGrowingKeepsEveryKey()
    {
        var window = new KeyWindow();
        Assert.Throws<InvalidOperationException>(() => window.Add(WindowKey.From(Pool[0]), 1));

        window.Grow(2);
        window.Add(WindowKey.From(Pool[0]), 1);
        window.Add(WindowKey.From(Pool[1]), 2);
        Assert.Throws<InvalidOperationException>(() => window.Add(WindowKey.From(Pool[2]), 3));

        window.RemoveOldest();
        window.Add(WindowKey.From(Pool[2]), 3);
        window.Grow(5);

        Assert.Equal(5, window.Room);
        Assert.False(window.Contains(WindowKey.From(Pool[0])));
        Assert.True(window.Contains(WindowKey.From(Pool[1])));
        Assert.True(window.Contains(WindowKey.From(Pool[2])));
        Assert.True(window.TryPeekOldest(out var at));
        Assert.Equal(2, at);
    }
}
