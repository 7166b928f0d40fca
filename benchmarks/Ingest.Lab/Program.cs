using Ingest.Lab.Cli;

using var stop = new CancellationTokenSource();
Console.CancelKeyPress += (_, e) =>
{
    // First Ctrl+C: stop cleanly (every started process is stopped on the way out); a second one kills the lab.
    e.Cancel = !stop.IsCancellationRequested;
    stop.Cancel();
};

// SIGTERM (a CI timeout, `kill`): the same clean stop, so no service the lab started outlives it; a second one ends it.
using var terminate = System.Runtime.InteropServices.PosixSignalRegistration.Create(System.Runtime.InteropServices.PosixSignal.SIGTERM, context =>
{
    context.Cancel = !stop.IsCancellationRequested;
    stop.Cancel();
});

try
{
    // The commands and their options: Cli/LabCommandLine.cs (`--help` lists them).
    return await LabCommandLine.InvokeAsync(args, Console.Out, Console.Error, stop.Token);
}
catch (OperationCanceledException) when (stop.IsCancellationRequested)
{
    Console.Error.WriteLine("Stopped: every process the lab started was stopped; the results so far are written.");
    return 130;
}
catch (InvalidOperationException ex)
{
    Console.Error.WriteLine($"lab: {ex.Message}");
    return 1;
}
