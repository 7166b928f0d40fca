using Ingest.Wire.Linux;

namespace Ingest.Transports.Internal.IoUring;

/// <summary>
/// One io_uring instance driven by raw syscalls: io_uring_setup, the SQ and CQ rings and the SQE array mapped
/// with mmap, io_uring_enter to submit and wait. No liburing, so there is no native build step. Used by one
/// thread only (the loop that created it); the kernel is the only other party, hence the acquire/release
/// accesses on the shared head and tail indexes.
/// </summary>
internal sealed unsafe class IoUringRing : IDisposable
{
    private const long OffsetSqRing = 0;
    private const long OffsetCqRing = 0x8000000;
    private const long OffsetSqes = 0x10000000;
    private const uint EnterGetEvents = 1;
    private const long RegisterEnableRings = 12;

    private static readonly Lazy<bool> DeferTaskRunProbe = new(() =>
    {
        var parameters = default(IoUringParameters);
        var fd = Setup(8, deferTaskRun: true, ref parameters);
        if (fd < 0)
        {
            return false;
        }

        _ = LibC.close(fd);
        return (parameters.Flags & IoUringParameters.SetupDeferTaskRun) != 0;
    });

    private readonly int _fd;
    private readonly byte* _sqRing;
    private readonly nuint _sqRingSize;
    private readonly byte* _cqRing;
    private readonly nuint _cqRingSize;
    private readonly IoUringSubmission* _sqes;
    private readonly nuint _sqesSize;
    private readonly uint* _sqHead;
    private readonly uint* _sqTail;
    private readonly uint _sqMask;
    private readonly uint _sqEntries;
    private readonly uint* _cqHead;
    private readonly uint* _cqTail;
    private readonly uint _cqMask;
    private readonly IoUringCompletion* _cqes;
    private uint _sqLocalTail;
    private uint _submittedTail;
    private bool _disabled;

    private IoUringRing(int fd, in IoUringParameters parameters)
    {
        _fd = fd;
        _sqRingSize = parameters.SqArray + (parameters.SqEntries * sizeof(uint));
        _cqRingSize = parameters.CqCqes + (parameters.CqEntries * (uint)sizeof(IoUringCompletion));
        var singleMmap = (parameters.Features & IoUringParameters.FeatureSingleMmap) != 0;
        if (singleMmap)
        {
            _sqRingSize = _cqRingSize = Math.Max(_sqRingSize, _cqRingSize);
        }

        _sqRing = Map(_sqRingSize, OffsetSqRing);
        _cqRing = singleMmap ? _sqRing : Map(_cqRingSize, OffsetCqRing);
        _sqesSize = parameters.SqEntries * (nuint)sizeof(IoUringSubmission);
        _sqes = (IoUringSubmission*)Map(_sqesSize, OffsetSqes);

        _sqHead = (uint*)(_sqRing + parameters.SqHead);
        _sqTail = (uint*)(_sqRing + parameters.SqTail);
        _sqMask = *(uint*)(_sqRing + parameters.SqRingMask);
        _sqEntries = *(uint*)(_sqRing + parameters.SqRingEntries);
        _cqHead = (uint*)(_cqRing + parameters.CqHead);
        _cqTail = (uint*)(_cqRing + parameters.CqTail);
        _cqMask = *(uint*)(_cqRing + parameters.CqRingMask);
        _cqes = (IoUringCompletion*)(_cqRing + parameters.CqCqes);

        // The SQ array indirection is fixed to the identity: entry i is always SQE i.
        var array = (uint*)(_sqRing + parameters.SqArray);
        for (uint i = 0; i < _sqEntries; i++)
        {
            array[i] = i;
        }

        _sqLocalTail = _submittedTail = *_sqTail;
        _disabled = (parameters.Flags & IoUringParameters.SetupDisabled) != 0;
        DefersTaskRun = (parameters.Flags & IoUringParameters.SetupDeferTaskRun) != 0;
    }

    /// <summary>
    /// Whether completions wait for the issuer to ask for events (IORING_SETUP_DEFER_TASKRUN): they appear in the
    /// completion queue only inside an io_uring_enter with GETEVENTS.
    /// </summary>
    public bool DefersTaskRun { get; }

    /// <summary>SQEs prepared but not handed to the kernel yet.</summary>
    public uint Pending => _sqLocalTail - _submittedTail;

    /// <summary>Whether this kernel takes IORING_SETUP_DEFER_TASKRUN (Linux 6.1+); probed once.</summary>
    public static bool CanDeferTaskRun => DeferTaskRunProbe.Value;

    /// <summary>
    /// A ring of <paramref name="entries"/> submission entries, its completion work deferred to the issuing thread
    /// when <paramref name="deferTaskRun"/> is set and the kernel can (then call <see cref="EnableOnThisThread"/>
    /// on that thread first).
    /// </summary>
    public static IoUringRing Create(uint entries, bool deferTaskRun)
    {
        var parameters = default(IoUringParameters);
        var fd = Setup(entries, deferTaskRun, ref parameters);
        if (fd < 0)
        {
            throw new IOException($"io_uring_setup failed: {Errno.Describe(LibC.LastErrno)}.");
        }

        try
        {
            return new IoUringRing(fd, parameters);
        }
        catch
        {
            _ = LibC.close(fd);
            throw;
        }
    }

    private static int Setup(uint entries, bool deferTaskRun, ref IoUringParameters parameters)
    {
        // Newer kernels take hints that save work; older ones reject unknown flags with EINVAL, so each attempt
        // asks for less. Best (Linux 6.1+): one thread submits and the completions' task work runs only when that
        // thread asks for events, so a busy socket does not interrupt or wake the loop for each completion. The
        // ring starts disabled and the loop thread enables it, which makes that thread its single issuer.
        const uint plain = IoUringParameters.SetupCqSize;
        const uint cooperative = plain | IoUringParameters.SetupSubmitAll | IoUringParameters.SetupCoopTaskRun;
        const uint deferred = cooperative | IoUringParameters.SetupSingleIssuer | IoUringParameters.SetupDeferTaskRun | IoUringParameters.SetupDisabled;
        ReadOnlySpan<uint> attempts = deferTaskRun ? [deferred, cooperative, plain] : [cooperative, plain];
        var fd = -1;
        foreach (var flags in attempts)
        {
            parameters = default;
            parameters.CqEntries = entries * 2;
            parameters.Flags = flags;
            fd = Setup(entries, ref parameters);
            if (fd >= 0 || LibC.LastErrno != Errno.EINVAL)
            {
                break;
            }
        }

        return fd;
    }

    /// <summary>Whether io_uring can be used here, and why not.</summary>
    public static string? Probe()
    {
        string? disabled = null;
        try
        {
            disabled = File.ReadAllText("/proc/sys/kernel/io_uring_disabled").Trim();
        }
        catch (IOException)
        {
            // Kernels before 6.6 have no such switch.
        }
        catch (UnauthorizedAccessException)
        {
        }

        if (disabled == "2")
        {
            return "io_uring is disabled on this machine (kernel.io_uring_disabled=2); an administrator can enable it with sysctl kernel.io_uring_disabled=0.";
        }

        var parameters = default(IoUringParameters);
        var fd = Setup(8, ref parameters);
        if (fd < 0)
        {
            var errno = LibC.LastErrno;
            return errno switch
            {
                Errno.ENOSYS => "this kernel has no io_uring (io_uring_setup: ENOSYS (38)).",
                Errno.EPERM => $"io_uring_setup was refused with EPERM (1): kernel.io_uring_disabled={disabled ?? "n/a"} restricts it, or a seccomp profile (container runtimes' default) blocks it.",
                _ => $"io_uring_setup failed with {Errno.Describe(errno)}.",
            };
        }

        _ = LibC.close(fd);
        const uint required = IoUringParameters.FeatureNoDrop | IoUringParameters.FeatureFastPoll;
        return (parameters.Features & required) != required
            ? $"this kernel's io_uring lacks the features the transport needs (NODROP, FAST_POLL: Linux 5.7 or later; features=0x{parameters.Features:x})."
            : null;
    }

    /// <summary>
    /// Enables a ring created disabled, making the calling thread its only submitter. Call it on the thread that
    /// will use the ring, before the first submission.
    /// </summary>
    public void EnableOnThisThread()
    {
        if (!_disabled)
        {
            return;
        }

        if (LibC.Syscall(LibC.SYS_io_uring_register, _fd, RegisterEnableRings, 0, 0, 0, 0) < 0)
        {
            throw new IOException($"io_uring_register(ENABLE_RINGS) failed: {Errno.Describe(LibC.LastErrno)}.");
        }

        _disabled = false;
    }

    /// <summary>The next free SQE, zeroed; submits first when the ring is full.</summary>
    public IoUringSubmission* NextSubmission()
    {
        if (_sqLocalTail - Volatile.Read(ref *_sqHead) >= _sqEntries)
        {
            Enter(wait: false);
        }

        var sqe = &_sqes[_sqLocalTail & _sqMask];
        *sqe = default;
        _sqLocalTail++;
        return sqe;
    }

    /// <summary>Hands prepared SQEs to the kernel and, when asked, waits for at least one completion.</summary>
    public void Enter(bool wait)
    {
        Volatile.Write(ref *_sqTail, _sqLocalTail);
        var toSubmit = _sqLocalTail - _submittedTail;
        if (toSubmit == 0 && !wait)
        {
            return;
        }

        while (true)
        {
            // With deferred task work a submit-only enter still asks for events (without waiting for any), so the
            // completions that arrived meanwhile are posted while the loop is busy too.
            var flags = wait || DefersTaskRun ? EnterGetEvents : 0;
            var result = LibC.Syscall(LibC.SYS_io_uring_enter, _fd, toSubmit, wait ? 1 : 0, flags, 0, 0);
            if (result >= 0)
            {
                _submittedTail += (uint)result;
                return;
            }

            var errno = LibC.LastErrno;
            if (errno == Errno.EINTR)
            {
                if (wait)
                {
                    // A signal interrupted the wait; the caller loops anyway.
                    return;
                }

                continue;
            }

            if (errno is Errno.EAGAIN or Errno.ENOBUFS || errno == 16)
            {
                // EBUSY/EAGAIN: the completion queue is backed up; the caller reaps and comes back.
                return;
            }

            throw new IOException($"io_uring_enter failed: {Errno.Describe(errno)}.");
        }
    }

    /// <summary>Whether completions are waiting to be reaped.</summary>
    public bool HasCompletions => *_cqHead != Volatile.Read(ref *_cqTail);

    /// <summary>Reaps up to <paramref name="destination"/>.Length completions.</summary>
    public int Reap(Span<IoUringCompletion> destination)
    {
        var head = *_cqHead;
        var tail = Volatile.Read(ref *_cqTail);
        var count = 0;
        while (head != tail && count < destination.Length)
        {
            destination[count++] = _cqes[head & _cqMask];
            head++;
        }

        Volatile.Write(ref *_cqHead, head);
        return count;
    }

    public void Dispose()
    {
        _ = LibC.munmap(_sqes, _sqesSize);
        if (_cqRing != _sqRing)
        {
            _ = LibC.munmap(_cqRing, _cqRingSize);
        }

        _ = LibC.munmap(_sqRing, _sqRingSize);
        _ = LibC.close(_fd);
    }

    private static int Setup(uint entries, ref IoUringParameters parameters)
    {
        fixed (IoUringParameters* pointer = &parameters)
        {
            return (int)LibC.Syscall(LibC.SYS_io_uring_setup, entries, (long)pointer, 0, 0, 0, 0);
        }
    }

    private byte* Map(nuint size, long offset)
    {
        var address = LibC.mmap(null, size, LibC.PROT_READ | LibC.PROT_WRITE, LibC.MAP_SHARED | LibC.MAP_POPULATE, _fd, offset);
        if (address == (void*)-1)
        {
            throw new IOException($"mmap of the io_uring rings failed: {Errno.Describe(LibC.LastErrno)}.");
        }

        return (byte*)address;
    }
}
