using System.Diagnostics;
using System.Globalization;
using Ingest.LoadGen;

namespace Ingest.Lab.Running;

/// <summary>
/// Our load generator, run as a process of its own (so its CPU is its own, and it can be pinned), with its
/// JSON result read back. Each phase runs without the generator's own warm-up: the lab runs a warm-up phase
/// itself and counts its acknowledged requests too, for the loss check.
/// </summary>
internal sealed class LoadGenDriver(Func<CancellationToken, Task<string>> publish) : ILoadDriver
{
    /// <summary>Percentiles of the latency curve kept for plots.</summary>
    private static readonly double[] CurvePercentiles = [1, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99];

    public string Name => "loadgen";

    public Task<string?> UnavailableAsync(CancellationToken cancellationToken) => Task.FromResult<string?>(null);

    public async Task<LoadRun> RunAsync(LoadPhase phase, Action<int> onStarted, CancellationToken cancellationToken)
    {
        var dll = await publish(cancellationToken);
        var load = phase.Load;
        var arguments = new List<string>
        {
            dll,
            "--url", new Uri(phase.Target, load.Path).ToString(),
            "-c", Invariant(load.Connections),
            "--pipeline", Invariant(load.Pipeline),
            "-d", Invariant(phase.Duration.TotalSeconds) + "s",
            "--warmup", "0",
            "--timeout", phase.TimeoutArgument,
            "--json", phase.ResultFile,
        };
        if (load.Method == "POST")
        {
            arguments.AddRange(["--body", phase.PayloadFile, "--content-type", load.ContentType]);
        }

        if (phase.MaxRequests is { } requests)
        {
            arguments.AddRange(["--requests", Invariant(requests)]);
        }

        if (load.Rate is { } rate)
        {
            arguments.AddRange(["--rate", Invariant(rate)]);
        }

        if (phase.Cpus is { } cpus && !cpus.Contains('-', StringComparison.Ordinal) && !cpus.Contains(',', StringComparison.Ordinal))
        {
            // Pinned to one CPU: one event loop, not two fighting over it.
            arguments.AddRange(["-t", "1"]);
        }

        var (file, args) = Pinning.Wrap(phase.Cpus, "dotnet", arguments);
        var start = new ProcessStartInfo(file, args) { RedirectStandardOutput = true, RedirectStandardError = true };
        using var process = Process.Start(start) ?? throw new InvalidOperationException("The load generator did not start.");
        onStarted(process.Id);
        var stdout = process.StandardOutput.ReadToEndAsync(cancellationToken);
        var stderr = process.StandardError.ReadToEndAsync(cancellationToken);
        await process.WaitForExitAsync(cancellationToken);
        await File.WriteAllTextAsync(Path.ChangeExtension(phase.ResultFile, ".txt"), await stdout + await stderr, cancellationToken);
        if (!File.Exists(phase.ResultFile))
        {
            throw new InvalidOperationException($"The load generator wrote no result (exit {process.ExitCode}): {(await stderr).Trim()} {(await stdout).Trim()}");
        }

        var result = LoadResultJson.Deserialize(await File.ReadAllTextAsync(phase.ResultFile, cancellationToken));
        return ToRun(result, Path.GetRelativePath(phase.RunFolder, phase.ResultFile));
    }

    internal static LoadRun ToRun(LoadResult result, string rawResult)
    {
        var errors = new Dictionary<string, long>();
        void Add(string kind, long count)
        {
            if (count > 0)
            {
                errors[kind] = count;
            }
        }

        Add("connect", result.Errors.Connect);
        Add("timeout", result.Errors.Timeout);
        Add("read", result.Errors.Read);
        Add("write", result.Errors.Write);
        Add("parse", result.Errors.Parse);
        foreach (var (status, count) in result.Errors.NonSuccessStatusCodes)
        {
            Add("status " + Invariant(status), count);
        }

        var latency = result.Latency;
        return new LoadRun
        {
            Driver = "loadgen",
            Seconds = result.ElapsedSeconds,
            RequestsPerSecond = result.RequestsPerSecond,
            Responses = result.Responses,
            Successful = result.SuccessfulResponses,
            Unknown = LossCheck.UnknownOutcomes(result),
            Latency = new LatencyFigures(latency.MeanMs, latency.P50Ms, latency.P75Ms, latency.P90Ms, latency.P99Ms, latency.P999Ms, latency.MaxMs)
            {
                Curve = Curve(latency),
            },
            Errors = errors,
            Timeline = [.. result.Timeline.Select(t => t.Requests)],
            TimelineMaxMs = [.. result.Timeline.Select(t => t.MaxMs)],
            RawResult = rawResult,
        };
    }

    private static List<double[]> Curve(LatencySummary latency)
    {
        var total = latency.Histogram.Sum(b => b.Count);
        var curve = new List<double[]>();
        if (total == 0)
        {
            return curve;
        }

        long cumulative = 0;
        var next = 0;
        foreach (var bucket in latency.Histogram)
        {
            cumulative += bucket.Count;
            while (next < CurvePercentiles.Length && cumulative >= CurvePercentiles[next] / 100 * total)
            {
                curve.Add([CurvePercentiles[next++], bucket.ToUs / 1000.0]);
            }
        }

        curve.Add([100, latency.MaxMs]);
        return curve;
    }

    private static string Invariant(double value) => value.ToString(CultureInfo.InvariantCulture);
}
