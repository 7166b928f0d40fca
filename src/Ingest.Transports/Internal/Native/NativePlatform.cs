using System.Runtime.InteropServices;

namespace Ingest.Transports.Internal.Native;

/// <summary>
/// What the custom transports need from the platform: Linux on x86-64. The struct layouts they use (packed
/// <c>epoll_event</c>) and the syscall numbers they pass (<c>LibC.SYS_*</c>) are x86-64 ones; another architecture
/// fails at start-up with one message instead of corrupting memory.
/// </summary>
internal static class NativePlatform
{
    /// <summary>Why the custom transports cannot run in this process, or null when they can.</summary>
    public static string? UnsupportedReason
    {
        get
        {
            if (!OperatingSystem.IsLinux())
            {
                return $"the Ingest transports need Linux, this is {RuntimeInformation.OSDescription}";
            }

            if (RuntimeInformation.ProcessArchitecture != Architecture.X64)
            {
                return $"the Ingest transports are built for x86-64 (struct layouts and syscall numbers), this process is {RuntimeInformation.ProcessArchitecture}";
            }

            return null;
        }
    }
}
