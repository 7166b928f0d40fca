using System.CommandLine;
using System.CommandLine.Invocation;

namespace Ingest.LoadGen.Cli;

/// <summary>The command line's flow: parse, run (Ctrl+C stops it cleanly and still reports), print the
/// summary, write the JSON file, print Crank's block last.</summary>
internal static class LoadGenCommand
{
    /// <summary>Exit code: the run measured responses.</summary>
    public const int Success = 0;

    /// <summary>Exit code: the run completed but no response was measured (nothing to compare).</summary>
    public const int NothingMeasured = 1;

    /// <summary>Exit code: bad command line or options.</summary>
    public const int UsageError = 2;

    /// <summary>Exit code: <c>--loss-check</c> found events acknowledged but not persisted (or persisted with no
    /// request to account for them), or could not read the back-end's total.</summary>
    public const int LossCheckFailed = 3;

    /// <summary>Parses <paramref name="args"/> and runs the load; the exit code says how it went.</summary>
    public static async Task<int> RunAsync(IReadOnlyList<string> args, TextWriter output, TextWriter error)
    {
        var command = CommandLine.Parse(args);
        if (command.Help || command.Errors.Count > 0)
        {
            return await ExplainAsync(command, output, error);
        }

        var options = command.Options;
        using var cancellation = new CancellationTokenSource();
        var cancelled = 0;
        void OnCancel(object? sender, ConsoleCancelEventArgs e)
        {
            // The first Ctrl+C stops the run and still reports; a second one ends the process.
            if (Interlocked.Exchange(ref cancelled, 1) == 0)
            {
                e.Cancel = true;
                cancellation.Cancel();
            }
        }

        Console.CancelKeyPress += OnCancel;
        try
        {
            await output.WriteLineAsync(ConsoleReport.Header(options, Math.Min(options.Threads, options.Connections)));
            var (gen0, gen1, gen2, allocated) = (GC.CollectionCount(0), GC.CollectionCount(1), GC.CollectionCount(2), GC.GetTotalAllocatedBytes());
            var result = await LoadRunner.RunAsync(options, cancellation.Token);
            await output.WriteAsync(ConsoleReport.Format(result));

            // In this process only the generator runs: a check that its hot path does not allocate.
            await output.WriteLineAsync(
                $"  Generator GC  {GC.CollectionCount(0) - gen0} gen0, {GC.CollectionCount(1) - gen1} gen1, {GC.CollectionCount(2) - gen2} gen2 collections; " +
                $"{(GC.GetTotalAllocatedBytes() - allocated) / 1024.0:N0} KiB allocated during the run");
            if (command.JsonPath is { } path)
            {
                try
                {
                    await using var file = File.Create(path);
                    await LoadResultJson.WriteAsync(file, result);
                }
                catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
                {
                    await error.WriteLineAsync($"error: --json could not write '{path}': {exception.Message}");
                    return UsageError;
                }
            }

            LossCheck? loss = null;
            if (command.LossCheck is { } backEnd)
            {
                try
                {
                    loss = LossCheck.Of(result, command.EventsPerRequest, await LossCheck.ReadPersistedAsync(backEnd, CancellationToken.None));
                    await output.WriteLineAsync($"  Loss check    {loss.Describe()}");
                }
                catch (Exception exception) when (exception is HttpRequestException or TaskCanceledException or System.Text.Json.JsonException or KeyNotFoundException)
                {
                    await error.WriteLineAsync($"error: --loss-check could not read {backEnd}ingest/stats: {exception.Message}");
                }
            }

            if (command.Crank)
            {
                await output.WriteAsync(CrankStatistics.Format(result, loss));
            }

            if (result.Responses == 0)
            {
                // Said, not only signalled by the exit code: under Crank this line is all a user sees of the reason.
                await error.WriteLineAsync(
                    $"error: no response in the {result.ElapsedSeconds:0.#} s measured ({result.Errors.Total:N0} failed requests, {result.WarmupRequests:N0} in the warm-up): " +
                    "the target answered nothing in time; a service that starts slowly needs a longer --warmup.");
            }

            await output.FlushAsync();
            return command.LossCheck is not null && loss is not { Passed: true } ? LossCheckFailed
                : result.Responses > 0 ? Success : NothingMeasured;
        }
        finally
        {
            Console.CancelKeyPress -= OnCancel;
        }
    }

    /// <summary>The help (<see cref="Success"/>), or what is wrong with the command line (<see cref="UsageError"/>): the
    /// parser's errors with its suggestion for a misspelled option, else what <see cref="LoadOptions.Validate"/> found.</summary>
    private static async Task<int> ExplainAsync(ParsedCommand command, TextWriter output, TextWriter error)
    {
        if (command.Help)
        {
            command.Result.Invoke(new InvocationConfiguration { Output = output, Error = error, ProcessTerminationTimeout = null });
            return Success;
        }

        if (command.Result.Action is ParseErrorAction parseError)
        {
            // The errors and suggestions only: the whole help after them would push the error off a Crank log's screen.
            parseError.ShowHelp = false;
            // The suggestions go to the action's output: stderr here, beside the errors they explain.
            command.Result.Invoke(new InvocationConfiguration { Output = error, Error = error, ProcessTerminationTimeout = null });
        }
        else
        {
            foreach (var problem in command.Errors)
            {
                await error.WriteLineAsync($"error: {problem}");
            }
        }

        await error.WriteLineAsync("Run with --help for usage.");
        return UsageError;
    }
}
