using System.Numerics;

namespace Ingest.Core.Sinks;

/// <summary>
/// The persisted keys of the idempotency window, oldest first: a ring of (key, time) slots in arrival order and an
/// open-addressing index of ring positions (linear probing, at most half full) to find a key. A key costs its 32-byte
/// slot and 8–16 bytes of index — no object, no hash-set entry or queue slot of its own (those cost more a key, and
/// growing them left garbage in the large object heap: docs/notebook/lean-services.md#the-idempotency-window).
/// Keys only ever leave oldest first, so the ring needs no free list, and a removed key's index entry is closed up by
/// shifting its probe run back (no tombstones to grow the probes). Not thread-safe: the guard holds its lock.
/// </summary>
internal sealed class KeyWindow
{
    /// <summary>Keys in arrival order from <see cref="_head"/>; a free slot is default (its text reference dropped).</summary>
    private (WindowKey Key, long At)[] _ring = [];

    /// <summary>Ring position + 1 of each key, at the slot its hash picks or the next free one after it; 0 is free.</summary>
    private int[] _index = new int[1];

    private int _head;
    private int _count;

    /// <summary>Keys held now.</summary>
    public int Count => _count;

    /// <summary>Keys it holds without allocating.</summary>
    public int Room => _ring.Length;

    public bool Contains(in WindowKey key) => Find(key) >= 0;

    /// <summary>The oldest key's time, or false when the window is empty.</summary>
    public bool TryPeekOldest(out long at)
    {
        at = _count == 0 ? 0 : _ring[_head].At;
        return _count != 0;
    }

    /// <summary>Adds a key not held yet, as the newest; there must be <see cref="Room"/> for it (it never allocates).</summary>
    public void Add(in WindowKey key, long at)
    {
        if (_count == _ring.Length)
        {
            throw new InvalidOperationException($"The key window is full ({_count} keys): make room with Grow before adding.");
        }

        var position = (_head + _count) % _ring.Length;
        _ring[position] = (key, at);
        Place(_index, key, position);
        _count++;
    }

    /// <summary>Forgets the oldest key.</summary>
    public void RemoveOldest()
    {
        if (_count == 0)
        {
            throw new InvalidOperationException("The key window is empty.");
        }

        var mask = _index.Length - 1;
        var slot = Home(_ring[_head].Key, mask);
        while (_index[slot] != _head + 1)
        {
            slot = (slot + 1) & mask;
        }

        CloseUp(slot, mask);
        _ring[_head] = default;
        _head = (_head + 1) % _ring.Length;
        _count--;
    }

    /// <summary>Makes room for <paramref name="keys"/> keys (nothing when there is): a new ring of exactly that many
    /// slots, the keys copied over in order, and an index at least twice its size, rebuilt. While it runs the old
    /// arrays and the new are held, the old never larger.</summary>
    public void Grow(int keys)
    {
        if (keys <= _ring.Length)
        {
            return;
        }

        var ring = new (WindowKey Key, long At)[keys];
        var index = new int[(int)BitOperations.RoundUpToPowerOf2((uint)keys * 2)];
        for (var i = 0; i < _count; i++)
        {
            ring[i] = _ring[(_head + i) % _ring.Length];
            Place(index, ring[i].Key, i);
        }

        _ring = ring;
        _index = index;
        _head = 0;
    }

    /// <summary>The ring position of <paramref name="key"/>, or -1.</summary>
    private int Find(in WindowKey key)
    {
        if (_count == 0)
        {
            return -1;
        }

        var mask = _index.Length - 1;
        for (var slot = Home(key, mask); _index[slot] != 0; slot = (slot + 1) & mask)
        {
            var position = _index[slot] - 1;
            if (_ring[position].Key.Equals(key))
            {
                return position;
            }
        }

        return -1;
    }

    /// <summary>Frees index slot <paramref name="gap"/> and moves back every later entry of its probe run whose home is
    /// not between the gap and where it sits (cyclically), so that a search from any entry's home still reaches it
    /// before a free slot.</summary>
    private void CloseUp(int gap, int mask)
    {
        for (var next = (gap + 1) & mask; _index[next] != 0; next = (next + 1) & mask)
        {
            var home = Home(_ring[_index[next] - 1].Key, mask);
            var stays = gap <= next ? gap < home && home <= next : gap < home || home <= next;
            if (!stays)
            {
                _index[gap] = _index[next];
                gap = next;
            }
        }

        _index[gap] = 0;
    }

    /// <summary>Records ring <paramref name="position"/> for <paramref name="key"/> in the first free slot of
    /// <paramref name="index"/> from the key's home.</summary>
    private static void Place(int[] index, in WindowKey key, int position)
    {
        var mask = index.Length - 1;
        var slot = Home(key, mask);
        while (index[slot] != 0)
        {
            slot = (slot + 1) & mask;
        }

        index[slot] = position + 1;
    }

    /// <summary>The index slot a key's search starts at: its hash spread over every bit (Fibonacci hashing), so keys
    /// whose hashes differ only in high bits do not share a run.</summary>
    private static int Home(in WindowKey key, int mask) =>
        (int)((uint)key.GetHashCode() * 2654435769u >> 32 - BitOperations.PopCount((uint)mask)) & mask;
}
