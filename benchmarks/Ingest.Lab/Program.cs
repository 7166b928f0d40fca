using Ingest.Lab;
using Ingest.Lab.Processes;

using var stop = new CancellationTokenSource();
Console.CancelKeyPress += (_, e) =>
{
    // First Ctrl+C: stop cleanly (every started process is stopped on the way out); a second one kills the lab.
    e.Cancel = !stop.IsCancellationRequested;
    stop.Cancel();
};

var layout = RepositoryLayout.Find();
var command = args.Length > 0 ? args[0] : "demo";
try
{
    return command switch
    {
        "demo" => await new Demo(layout, Console.Out).RunAsync(stop.Token),
        _ => Usage($"Unknown command '{command}'."),
    };
}
catch (OperationCanceledException) when (stop.IsCancellationRequested)
{
    Console.Error.WriteLine("Stopped.");
    return 130;
}
catch (InvalidOperationException ex)
{
    Console.Error.WriteLine($"lab: {ex.Message}");
    return 1;
}

static int Usage(string problem)
{
    Console.Error.WriteLine(problem);
    Console.Error.WriteLine("usage: Ingest.Lab [demo]");
    return 2;
}
