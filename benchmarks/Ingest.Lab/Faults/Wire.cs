using System.Diagnostics;

namespace Ingest.Lab.Faults;

/// <summary>
/// The link between the front-end's namespace and the back-end's: two TUN devices, one in each, and a thread per
/// direction that reads every IP packet one side sends and hands it to the other, at once or when the current
/// <see cref="Impairment"/> says. The kernel's own tools act on the same devices as on any link (nftables drops and
/// duplicates, tc shapes the rate); the wire adds only the delays netem would. Disposing it stops the threads and
/// removes both devices.
/// </summary>
internal sealed class Wire : IDisposable
{
    /// <summary>How long a thread sleeps when nothing is held: the longest a stop waits for it.</summary>
    private const int IdleWaitMilliseconds = 50;

    /// <summary>Larger than any packet a TUN device with the default MTU hands over.</summary>
    private const int MaxPacket = 65_536;

    private readonly TunDevice _frontEnd;
    private readonly TunDevice _backEnd;
    private readonly Thread[] _threads;
    private volatile WireImpairment _impairment = WireImpairment.None;
    private volatile bool _stopping;
    private long _carried;

    public Wire(TunDevice frontEnd, TunDevice backEnd)
    {
        _frontEnd = frontEnd;
        _backEnd = backEnd;
        _threads =
        [
            new Thread(() => Carry(frontEnd, backEnd, seed: 1)) { IsBackground = true, Name = "wire front-end→back-end" },
            new Thread(() => Carry(backEnd, frontEnd, seed: 2)) { IsBackground = true, Name = "wire back-end→front-end" },
        ];
        foreach (var thread in _threads)
        {
            thread.Start();
        }
    }

    /// <summary>What happens to the packets read from now on, both ways.</summary>
    public WireImpairment Impairment
    {
        get => _impairment;
        set => _impairment = value;
    }

    /// <summary>Packets carried so far, both ways.</summary>
    public long Carried => Interlocked.Read(ref _carried);

    public void Dispose()
    {
        _stopping = true;
        foreach (var thread in _threads)
        {
            thread.Join();
        }

        _frontEnd.Dispose();
        _backEnd.Dispose();
    }

    private void Carry(TunDevice from, TunDevice to, int seed)
    {
        // Seeded: a run's jitter and reordering can be had again.
        var random = new Random(seed);
        var held = new PriorityQueue<byte[], (long At, long Sequence)>();
        var buffer = new byte[MaxPacket];
        long sequence = 0;
        while (!_stopping)
        {
            var now = Stopwatch.GetTimestamp();
            while (held.TryPeek(out _, out var key) && key.At <= now)
            {
                to.Write(held.Dequeue());
            }

            var wait = held.TryPeek(out _, out var next)
                ? (int)Math.Clamp((next.At - now) * 1000 / Stopwatch.Frequency, 0, IdleWaitMilliseconds)
                : IdleWaitMilliseconds;
            if (!from.WaitReadable(wait))
            {
                continue;
            }

            int length;
            while ((length = from.Read(buffer)) > 0)
            {
                Interlocked.Increment(ref _carried);
                var read = Stopwatch.GetTimestamp();
                var at = _impairment.DeliverAt(read, random);
                if (at <= read)
                {
                    to.Write(buffer.AsSpan(0, length));
                }
                else
                {
                    // A copy per held packet: only while an impairment holds them.
                    held.Enqueue(buffer.AsSpan(0, length).ToArray(), (at, sequence++));
                }
            }
        }
    }
}
