using System.Globalization;
using Ingest.Lab.Catalogue;
using Ingest.Lab.Results;
using Ingest.LoadGen;

namespace Ingest.Lab.Running;

/// <summary>
/// Runs one scenario from start to stop: services up, warm-up, measured repeats (sampled), the optional wrk
/// cross-check, the loss check, and everything stopped again whatever happened.
/// </summary>
internal sealed class ScenarioRunner(Artifacts artifacts, ILoadDriver loadGenerator, ILoadDriver? crossCheck, LabOptions options, Pinning pinning, string runFolder)
{
    private const string FrontEndJob = "front-end";
    private const string BackEndJob = "back-end";

    /// <summary>Reads the services' runtime counters around each phase: a page on loopback, a second is plenty.</summary>
    private static readonly HttpClient CounterReader = new() { Timeout = TimeSpan.FromSeconds(2) };

    private readonly ProfileTraining _training = new(artifacts, loadGenerator, options, pinning, runFolder);

    public async Task<ScenarioResult> RunAsync(Scenario scenario, Action<string> progress, CancellationToken cancellationToken) =>
        await RunAsync(scenario, options.Limits, progress, cancellationToken);

    /// <summary>The scenario with every front-end and back-end under <paramref name="limits"/> (a container each):
    /// started, warmed up, measured and stopped.</summary>
    public async Task<ScenarioResult> RunAsync(Scenario scenario, ServiceLimits limits, Action<string> progress, CancellationToken cancellationToken)
    {
        var (started, ended) = await StartAsync(scenario, limits, progress, cancellationToken);
        if (started is null)
        {
            return ended!;
        }

        await using (started)
        {
            return await MeasureAsync(started, progress, cancellationToken);
        }
    }

    /// <summary>The scenario's services up (trained first where it is profile-guided), not yet loaded; or, when it
    /// cannot start, its skipped or failed result.</summary>
    public async Task<(StartedScenario? Started, ScenarioResult? Ended)> StartAsync(Scenario scenario, ServiceLimits limits, Action<string> progress, CancellationToken cancellationToken)
    {
        var folder = Path.Combine(runFolder, "scenarios", scenario.Set, scenario.Name);
        Directory.CreateDirectory(folder);
        var payload = PayloadFiles.Write(folder, scenario.Load.Payload);
        var configuration = Describe(scenario);
        Topology? topology = null;
        try
        {
            scenario = await _training.ApplyAsync(scenario, progress, cancellationToken);
            topology = await Topology.StartAsync(scenario, artifacts, pinning, limits, folder, cancellationToken);
            var prometheus = options.Prometheus ? await StartPrometheusAsync(scenario, topology, folder, cancellationToken) : null;
            return (new StartedScenario(scenario, topology, prometheus, payload, folder, configuration), null);
        }
        catch (ScenarioSkippedException ex)
        {
            await DisposeQuietlyAsync(topology);
            return (null, Ended(scenario, configuration, ScenarioStatus.Skipped, ex.Message));
        }
        catch (Exception ex) when (ex is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
        {
            await DisposeQuietlyAsync(topology);
            return (null, Ended(scenario, configuration, ScenarioStatus.Failed, ex.Message));
        }
    }

    /// <summary>
    /// One round of a started scenario: warm-up (the run's whole adaptive one in its first round; in a later round of
    /// services kept up, <see cref="LabOptions.Rewarm"/> or the scenario's minimum), the measured repeats, the wrk
    /// cross-check and the loss check over what this round sent.
    /// </summary>
    public async Task<ScenarioResult> MeasureAsync(StartedScenario started, Action<string> progress, CancellationToken cancellationToken)
    {
        var (scenario, topology, prometheus, payload, folder) = (started.Scenario, started.Topology, started.Prometheus, started.Payload, started.Folder);
        var round = ++started.Rounds;
        var prefix = round == 1 ? "" : $"round-{round}-";
        try
        {
            long acknowledged = 0;
            long unknown = 0;

            var warmedUp = round == 1
                ? await WarmUpAsync(topology, scenario, Max(options.Warmup, scenario.MinimumWarmup), options.WarmupLimit, payload, folder, prefix, progress, cancellationToken)
                : await WarmUpAsync(topology, scenario, Max(options.Rewarm, scenario.MinimumWarmup), Max(options.Rewarm, scenario.MinimumWarmup), payload, folder, prefix, progress, cancellationToken);
            acknowledged += warmedUp.Successful;
            unknown += warmedUp.Unknown;

            var runs = new List<LoadRun>();
            var measuredFrom = DateTimeOffset.UtcNow;
            for (var repeat = 1; repeat <= options.Repeats; repeat++)
            {
                progress($"run {repeat}/{options.Repeats}");
                var run = await DriveAsync(loadGenerator, topology, scenario, options.Duration, payload, Path.Combine(folder, $"{prefix}run-{repeat}.json"), cancellationToken);
                runs.Add(run);
                acknowledged += run.Successful;
                unknown += run.Unknown;
            }

            var measuredTo = DateTimeOffset.UtcNow;
            IReadOnlyDictionary<string, PrometheusFigures>? scraped = null;
            if (prometheus is not null)
            {
                progress("prometheus view");
                scraped = await PrometheusViewAsync(prometheus, scenario, measuredFrom, measuredTo, cancellationToken);
            }

            LoadRun? wrk = null;
            if (crossCheck is not null)
            {
                progress("wrk cross-check");
                wrk = await DriveAsync(crossCheck, topology, scenario, options.Duration, payload, Path.Combine(folder, prefix + "wrk"), cancellationToken);
                acknowledged += wrk.Successful;
                unknown += wrk.Unknown;
            }

            LossCheck? loss = null;
            if (topology.BackEnd is { } backEnd && scenario.BackEnd is { Counts: true } && scenario.Load.EventsPerRequest > 0)
            {
                // The back-end's total since the last round's check: services kept up between rounds keep counting.
                progress("loss check");
                var persisted = await LossCheck.ReadPersistedAsync(backEnd, cancellationToken);
                loss = new LossCheck(acknowledged * scenario.Load.EventsPerRequest, unknown * scenario.Load.EventsPerRequest, persisted - started.Persisted);
                started.Persisted = persisted;
            }

            var succeeded = runs.Sum(r => r.Successful);
            var (status, reason) = (loss, succeeded) switch
            {
                ({ Passed: false }, _) => (ScenarioStatus.Failed, loss.Describe() + "\n" + topology.LastLines()),
                (_, 0) => (ScenarioStatus.Failed, "No request succeeded in the measured runs: " + string.Join(", ", runs.SelectMany(r => r.Errors).GroupBy(e => e.Key).Select(g => $"{g.Key} {g.Sum(e => e.Value)}")) + "\n" + topology.LastLines()),
                _ => (ScenarioStatus.Passed, loss?.Describe()),
            };
            return new ScenarioResult
            {
                Set = scenario.Set,
                Name = scenario.Name,
                Title = scenario.Title,
                Configuration = started.Configuration,
                Status = status,
                Reason = reason,
                WarmupSeconds = warmedUp.Seconds,
                Runs = runs,
                CrossCheck = wrk,
                Loss = loss,
                Summary = ScenarioSummary.From(runs),
                Prometheus = scraped,
                Containers = topology.Containers(),
            };
        }
        catch (ScenarioSkippedException ex)
        {
            return Ended(scenario, started.Configuration, ScenarioStatus.Skipped, ex.Message);
        }
        catch (Exception ex) when (ex is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
        {
            return Ended(scenario, started.Configuration, ScenarioStatus.Failed, ex.Message);
        }
    }

    private static TimeSpan Max(TimeSpan a, TimeSpan b) => a > b ? a : b;

    private static async Task DisposeQuietlyAsync(Topology? topology)
    {
        if (topology is not null)
        {
            await topology.DisposeAsync();
        }
    }

    /// <summary>Load until warm (see <see cref="WarmUp"/>): <paramref name="first"/>, then slices while still rising, up to <paramref name="limit"/>.</summary>
    private async Task<(long Successful, long Unknown, double Seconds)> WarmUpAsync(
        Topology topology, Scenario scenario, TimeSpan first, TimeSpan limit, string payload, string folder, string prefix, Action<string> progress, CancellationToken cancellationToken)
    {
        var result = await WarmUp.RunAsync(first, limit, (phase, number) =>
            DriveAsync(loadGenerator, topology, scenario, phase, payload, Path.Combine(folder, $"{prefix}warmup-{number}.json"), cancellationToken));
        if (result.Elapsed > TimeSpan.Zero)
        {
            progress(result.Describe());
        }

        return (result.Successful, result.Unknown, result.Elapsed.TotalSeconds);
    }

    private async Task<LoadRun> DriveAsync(ILoadDriver driver, Topology topology, Scenario scenario, TimeSpan duration, string payload, string resultFile, CancellationToken cancellationToken)
    {
        var countersBefore = await ReadCountersAsync(topology, cancellationToken);
        await using var sampler = new ResourceSampler(topology.ProcessIds);
        var phase = new LoadPhase(topology.Target, scenario.Load, duration, options.Requests, payload, resultFile, pinning.LoadCpus, runFolder, scenario.ResponseTimeout);
        var run = await driver.RunAsync(phase, pid => sampler.Track("load generator", pid), cancellationToken);
        var usage = await sampler.StopAsync();
        var countersAfter = await ReadCountersAsync(topology, cancellationToken);
        foreach (var process in topology.Processes)
        {
            if (process.HasExited)
            {
                throw new InvalidOperationException($"{process.Name} exited during the load{topology.ExitNote(process)}. Last lines:\n{process.LastLines()}");
            }
        }

        return run with
        {
            Processes = usage.ToDictionary(p => p.Key, p => topology.Metrics.ContainsKey(p.Key)
                ? p.Value with { Gc = GcUsage.Between(countersBefore.GetValueOrDefault(p.Key), countersAfter.GetValueOrDefault(p.Key), run.Seconds, run.Responses) }
                : p.Value),
        };
    }

    private static async Task<Dictionary<string, RuntimeCounters?>> ReadCountersAsync(Topology topology, CancellationToken cancellationToken)
    {
        var readings = await Task.WhenAll(topology.Metrics.Select(async m => (m.Key, Counters: await RuntimeCounters.ReadAsync(CounterReader, m.Value, cancellationToken))));
        return readings.ToDictionary(r => r.Key, r => r.Counters);
    }

    /// <summary>Prometheus scraping every .NET service of the scenario (Go services have no /metrics).</summary>
    private static async Task<PrometheusServer?> StartPrometheusAsync(Scenario scenario, Topology topology, string folder, CancellationToken cancellationToken)
    {
        var jobs = new Dictionary<string, IReadOnlyList<Uri>>();
        if (scenario.FrontEnd.Implementation == Implementation.DotNet)
        {
            jobs[FrontEndJob] = topology.FrontEnds;
        }

        if (scenario.BackEnd is { Implementation: Implementation.DotNet } && topology.BackEnd is { } backEnd)
        {
            jobs[BackEndJob] = [backEnd];
        }

        return jobs.Count == 0 ? null : await PrometheusServer.StartAsync(Path.Combine(folder, "prometheus"), jobs, cancellationToken);
    }

    private static async Task<IReadOnlyDictionary<string, PrometheusFigures>> PrometheusViewAsync(PrometheusServer prometheus, Scenario scenario, DateTimeOffset from, DateTimeOffset to, CancellationToken cancellationToken)
    {
        // Two more scrapes, so the last one lands after the window closes.
        await Task.Delay(2 * PrometheusServer.ScrapeInterval, cancellationToken);
        var view = new Dictionary<string, PrometheusFigures>();
        if (scenario.FrontEnd.Implementation == Implementation.DotNet)
        {
            view[FrontEndJob] = await prometheus.FiguresAsync(FrontEndJob, from, to, cancellationToken);
        }

        if (scenario.BackEnd is { Implementation: Implementation.DotNet })
        {
            view[BackEndJob] = await prometheus.FiguresAsync(BackEndJob, from, to, cancellationToken);
        }

        return view;
    }

    private static ScenarioResult Ended(Scenario scenario, IReadOnlyDictionary<string, string> configuration, ScenarioStatus status, string reason) => new()
    {
        Set = scenario.Set,
        Name = scenario.Name,
        Title = scenario.Title,
        Configuration = configuration,
        Status = status,
        Reason = reason,
    };

    private static Dictionary<string, string> Describe(Scenario scenario)
    {
        var configuration = new Dictionary<string, string>
        {
            ["front-end"] = scenario.FrontEnd.Describe() + (scenario.FrontEndInstances > 1 ? $" x{scenario.FrontEndInstances.ToString(CultureInfo.InvariantCulture)}" : ""),
            ["load"] = scenario.Load.Describe(),
        };
        if (scenario.BackEnd is { } backEnd)
        {
            configuration["back-end"] = backEnd.Describe();
        }

        if (scenario.FrontDoor != FrontDoor.Direct)
        {
            configuration["front door"] = scenario.FrontDoor.ToString();
        }

        return configuration;
    }
}
