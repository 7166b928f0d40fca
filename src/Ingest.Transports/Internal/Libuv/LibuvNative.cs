using System.Reflection;
using System.Runtime.InteropServices;

namespace Ingest.Transports.Internal.Libuv;

/// <summary>
/// The libuv 1.x entry points the backend uses. The library is resolved to Debian's runtime package
/// (<c>libuv.so.1</c>, from <c>libuv1</c>) by a DllImport resolver, so the <c>-dev</c> package and its
/// <c>libuv.so</c> symlink are not needed.
/// </summary>
internal static unsafe partial class LibuvNative
{
    public const string LibraryName = "libuv";

    /// <summary>The file names tried, in order: the SONAME first, the development symlink second.</summary>
    public static readonly string[] CandidateFiles = ["libuv.so.1", "libuv.so"];

    public const int HandleTypeNamedPipe = 7;
    public const int HandleTypeTcp = 12;
    public const int HandleTypeAsync = 1;
    public const int RequestTypeWrite = 3;
    public const int RunOnce = 1;
    public const int RunNoWait = 2;
    public const int ErrorEof = -4095;
    public const int ErrorNoBuffers = -105;
    public const int ErrorAgain = -11;

    private static int s_resolverRegistered;
    private static nint s_library;

    /// <summary>Makes <c>[LibraryImport("libuv")]</c> load libuv.so.1; idempotent.</summary>
    public static void EnsureResolver()
    {
        if (Interlocked.Exchange(ref s_resolverRegistered, 1) == 0)
        {
            NativeLibrary.SetDllImportResolver(typeof(LibuvNative).Assembly, Resolve);
        }
    }

    /// <summary>Why libuv cannot be loaded from <paramref name="candidates"/>, or null when it can.</summary>
    public static string? WhyUnavailable(IReadOnlyList<string> candidates)
    {
        foreach (var candidate in candidates)
        {
            if (NativeLibrary.TryLoad(candidate, out var handle))
            {
                NativeLibrary.Free(handle);
                return null;
            }
        }

        return $"libuv is not installed ({string.Join(" and ", candidates)} not found). Install it with 'apt-get install libuv1' (Debian and Ubuntu; the -dev package is not needed).";
    }

    [LibraryImport(LibraryName)]
    public static partial uint uv_version();

    [LibraryImport(LibraryName)]
    public static partial nuint uv_loop_size();

    [LibraryImport(LibraryName)]
    public static partial int uv_loop_init(nint loop);

    [LibraryImport(LibraryName)]
    public static partial int uv_loop_close(nint loop);

    [LibraryImport(LibraryName)]
    public static partial int uv_loop_alive(nint loop);

    [LibraryImport(LibraryName)]
    public static partial int uv_run(nint loop, int mode);

    [LibraryImport(LibraryName)]
    public static partial nuint uv_handle_size(int type);

    [LibraryImport(LibraryName)]
    public static partial nuint uv_req_size(int type);

    [LibraryImport(LibraryName)]
    public static partial int uv_async_init(nint loop, nint handle, delegate* unmanaged<nint, void> callback);

    [LibraryImport(LibraryName)]
    public static partial int uv_async_send(nint handle);

    [LibraryImport(LibraryName)]
    public static partial int uv_tcp_init(nint loop, nint handle);

    [LibraryImport(LibraryName)]
    public static partial int uv_tcp_open(nint handle, int fd);

    [LibraryImport(LibraryName)]
    public static partial int uv_tcp_nodelay(nint handle, int enable);

    [LibraryImport(LibraryName)]
    public static partial int uv_pipe_init(nint loop, nint handle, int ipc);

    [LibraryImport(LibraryName)]
    public static partial int uv_pipe_open(nint handle, int fd);

    [LibraryImport(LibraryName)]
    public static partial int uv_listen(nint stream, int backlog, delegate* unmanaged<nint, int, void> callback);

    [LibraryImport(LibraryName)]
    public static partial int uv_accept(nint server, nint client);

    [LibraryImport(LibraryName)]
    public static partial int uv_read_start(nint stream, delegate* unmanaged<nint, nuint, UvBuffer*, void> allocate, delegate* unmanaged<nint, nint, UvBuffer*, void> read);

    [LibraryImport(LibraryName)]
    public static partial int uv_read_stop(nint stream);

    [LibraryImport(LibraryName)]
    public static partial int uv_try_write(nint stream, UvBuffer* buffers, uint count);

    [LibraryImport(LibraryName)]
    public static partial int uv_write(nint request, nint stream, UvBuffer* buffers, uint count, delegate* unmanaged<nint, int, void> callback);

    [LibraryImport(LibraryName)]
    public static partial void uv_close(nint handle, delegate* unmanaged<nint, void> callback);

    [LibraryImport(LibraryName)]
    public static partial int uv_fileno(nint handle, int* fd);

    [LibraryImport(LibraryName)]
    public static partial nint uv_err_name(int error);

    /// <summary>"UV_ECONNRESET (-104)".</summary>
    public static string Describe(int error) => $"{Marshal.PtrToStringUTF8(uv_err_name(error))} ({error})";

    /// <summary>The <c>data</c> pointer: the first field of every libuv handle and request.</summary>
    public static ref nint Data(nint handleOrRequest) => ref *(nint*)handleOrRequest;

    private static nint Resolve(string name, Assembly assembly, DllImportSearchPath? searchPath)
    {
        if (name != LibraryName)
        {
            return 0;
        }

        if (s_library != 0)
        {
            return s_library;
        }

        foreach (var candidate in CandidateFiles)
        {
            if (NativeLibrary.TryLoad(candidate, out var handle))
            {
                s_library = handle;
                return handle;
            }
        }

        return 0;
    }
}
