using System.Runtime.InteropServices;

namespace Ingest.Lab.Processes;

/// <summary>POSIX signals to child processes: .NET has Kill, but no way to ask politely.</summary>
internal static partial class Signals
{
    private const int SigTerm = 15;

    public static void Terminate(int processId) => _ = Kill(processId, SigTerm);

    [LibraryImport("libc", EntryPoint = "kill")]
    private static partial int Kill(int pid, int signal);
}
