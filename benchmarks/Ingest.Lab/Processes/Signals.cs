using Ingest.Wire.Linux;

namespace Ingest.Lab.Processes;

/// <summary>POSIX signals to child processes: .NET has Kill, but no way to ask politely.</summary>
internal static class Signals
{
    public static void Terminate(int processId) => _ = LibC.kill(processId, LibC.SIGTERM);
}
