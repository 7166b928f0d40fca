using System.Globalization;
using Ingest.Core.Forwarding;
using Ingest.Core.Samples;
using Ingest.Lab.Catalogue;
using Ingest.Lab.Running;
using Ingest.LoadGen;

namespace Ingest.Lab.Faults;

/// <summary>
/// The published front-end and back-end (default settings, the back-end persisting to NDJSON files) on the
/// <see cref="FaultNetwork"/>, and one fault at a time under a steady load: the load (the project's load generator, in
/// process, open loop) runs before the fault, through it and for a while after it; the fault is put on the wire and lifted
/// on time; the front-end's memory and its circuit are read a few times a second; then the back-end's store is checked
/// against what was acknowledged. Disposing it stops the services and removes the network.
/// </summary>
internal sealed class FaultBench : IAsyncDisposable
{
    /// <summary>The most the front-end may hold resident during a fault: what <c>ReliabilityTests</c> allows it under a
    /// flood ten times its sustainable rate.</summary>
    public const long ResidentBound = 400L * 1024 * 1024;

    /// <summary>How often the front-end's memory and circuit are read.</summary>
    private static readonly TimeSpan ReadEvery = TimeSpan.FromMilliseconds(250);

    /// <summary>Steady load the services get before the first fault: connections open, code jitted.</summary>
    private static readonly TimeSpan WarmUp = TimeSpan.FromSeconds(3);

    /// <summary>How long the load goes on after the recovery bound, to show the service stays back.</summary>
    private static readonly TimeSpan Settled = TimeSpan.FromSeconds(3);

    /// <summary>The answers a fault between the services may give: the contract's 502, 503 and 504, never a 500.</summary>
    private static readonly HashSet<string> FaultAnswers = new(StringComparer.Ordinal) { "status 502", "status 503", "status 504" };

    private readonly FaultNetwork _network;
    private readonly Topology _topology;
    private readonly string _store;
    private readonly FaultsOptions _options;
    private readonly HttpClient _http = new() { Timeout = TimeSpan.FromSeconds(1) };
    private int _runs;

    private FaultBench(FaultNetwork network, Topology topology, string store, FaultsOptions options, ForwardingOptions forwarding)
    {
        _network = network;
        _topology = topology;
        _store = store;
        _options = options;
        Forwarding = forwarding;
        var longest = Math.Max(forwarding.TimeoutMilliseconds, forwarding.AttemptTimeoutMilliseconds + (forwarding.BreakerBreakSeconds * 1000));
        RecoveryBound = options.Recovery ?? TimeSpan.FromMilliseconds(longest) + TimeSpan.FromSeconds(2);
    }

    /// <summary>The front-end's forwarding settings: the defaults with the command's <c>--front-end</c> ones.</summary>
    public ForwardingOptions Forwarding { get; }

    /// <summary>The time the service is given, after a fault, to be back to normal for good.</summary>
    public TimeSpan RecoveryBound { get; }

    /// <summary>The latest an open circuit may still refuse after the fault: a trial forward sent just before the end
    /// fails at its attempt's timeout and opens the circuit for another break; the next trial closes it.</summary>
    public TimeSpan CircuitBound => TimeSpan.FromMilliseconds(Forwarding.AttemptTimeoutMilliseconds + (Forwarding.BreakerBreakSeconds * 1000)) + ReadEvery * 2;

    /// <summary>How long a fault that fails every forward must last for the circuit to be bound to open: by then every
    /// attempt in the breaker's sampling window has failed (the successes before the fault have left it), so the failure
    /// ratio is 1. A shorter fault may end before the successes have left the window.</summary>
    public TimeSpan CircuitMustOpen => TimeSpan.FromMilliseconds(Forwarding.AttemptTimeoutMilliseconds) + TimeSpan.FromSeconds(Forwarding.BreakerSamplingSeconds);

    /// <summary>The latest the circuit may be seen opening after such a fault began: <see cref="CircuitMustOpen"/> and
    /// two readings of the front-end's metrics.</summary>
    public TimeSpan CircuitOpenBound => CircuitMustOpen + ReadEvery * 2;

    /// <summary>Makes the network, starts the services on it and warms them up; on a failure, takes down what it made.</summary>
    public static async Task<FaultBench> StartAsync(Artifacts artifacts, FaultsOptions options, string workDirectory, TextWriter log, CancellationToken cancellationToken)
    {
        var store = Directory.CreateDirectory(Path.Combine(workDirectory, "store")).FullName;
        var smoke = ScenarioCatalogue.InSet("smoke")[0];
        var scenario = smoke with
        {
            FrontEnd = smoke.FrontEnd.With([.. options.FrontEndSettings.Select(s => (s.Key, s.Value))]),
            BackEnd = smoke.BackEnd!.With(("Sinks:Default", "File"), ("Sinks:File:Directory", store)),
            Stores = [],
        };
        var network = FaultNetwork.Create();
        Topology? topology = null;
        try
        {
            log.WriteLine($"Network: {FaultNetwork.FrontEndNamespace} ({FaultNetwork.Placement.FrontEnd.FromLab}) and {FaultNetwork.BackEndNamespace} ({FaultNetwork.Placement.BackEnd.FromLab}), the wire {FaultNetwork.Placement.FrontEnd.FromPeers} - {FaultNetwork.Placement.BackEnd.FromPeers}");
            topology = await Topology.StartAsync(scenario, artifacts, Pinning.None, ServiceLimits.None, workDirectory, cancellationToken, FaultNetwork.Placement);
            var bench = new FaultBench(network, topology, store, options, options.Forwarding());
            var warm = await LoadRunner.RunAsync(bench.Load("warm-", WarmUp), cancellationToken);
            if (warm.SuccessfulResponses == 0 || warm.Errors.Total + warm.BadResponses > 0)
            {
                throw new InvalidOperationException($"The services did not serve the warm-up cleanly: {warm.SuccessfulResponses} acknowledged, {warm.BadResponses} other answers, {warm.Errors.Total} failures.\n{topology.LastLines()}");
            }

            return bench;
        }
        catch
        {
            if (topology is not null)
            {
                await topology.DisposeAsync();
            }

            await network.DisposeAsync();
            throw;
        }
    }

    /// <summary>Runs the load through <paramref name="fault"/> and judges what it did.</summary>
    public async Task<FaultOutcome> RunAsync(Fault fault, CancellationToken cancellationToken)
    {
        var prefix = $"f{(++_runs).ToString("00", CultureInfo.InvariantCulture)}-{fault.Name}-";
        var frontEnd = _topology.ProcessIds["front-end"];
        var metrics = _topology.Metrics["front-end"];
        var circuit = new CircuitWatch();
        long peak = 0;
        var carried = _network.Carried;

        var load = LoadRunner.RunAsync(Load(prefix, _options.Before + fault.Duration + RecoveryBound + Settled), cancellationToken);
        var schedule = ScheduleAsync(fault, _topology.BackEnd!.Port, cancellationToken);
        while (!load.IsCompleted)
        {
            peak = Math.Max(peak, Running.ProcFs.ResidentBytes(frontEnd) ?? 0);
            circuit.Record(DateTimeOffset.UtcNow, await PageAsync(metrics, cancellationToken));
            await Task.WhenAny(load, Task.Delay(ReadEvery, cancellationToken));
        }

        var result = await load;
        var (applied, lifted) = await schedule;

        // The back-end's count stops moving once the last forwards have landed; then its files are complete.
        await LossCheck.ReadPersistedAsync(_topology.BackEnd, cancellationToken);
        var (lines, distinct) = PersistedIds.Count(_store, prefix);
        var liftedAt = (lifted - result.StartedAt).TotalSeconds;
        var (opened, closed) = circuit.Refusals();
        var outcome = new FaultOutcome
        {
            Fault = fault.Name,
            What = fault.What,
            Seconds = fault.Duration.TotalSeconds,
            Requests = result.Requests,
            Acknowledged = result.SuccessfulResponses,
            Errors = LoadGenDriver.ToRun(result, rawResult: "").Errors,
            RecoverySeconds = FirstCleanSecond(result.Timeline) is { } second ? Math.Max(0, Math.Ceiling(second - liftedAt)) : null,
            RecoveryBound = RecoveryBound.TotalSeconds,
            Loss = new LossCheck(result.SuccessfulResponses, LossCheck.UnknownOutcomes(result), distinct),
            Duplicated = lines - distinct,
            CircuitOpened = (opened - applied)?.TotalSeconds,
            CircuitLastRefusal = (closed - lifted)?.TotalSeconds,
            FrontEndPeakResidentBytes = peak,
            WirePackets = _network.Carried - carried,
            Problems = [],
        };
        return outcome with { Problems = Judge(fault, outcome) };
    }

    /// <summary>What <paramref name="outcome"/> breaks of the promises: nothing acknowledged lost, nothing persisted
    /// twice, only 502, 503 and 504 while the fault lasts, the front-end's memory bounded, the circuit open in time when
    /// every forward fails for long enough (<see cref="CircuitOpenBound"/>) and closed again in time
    /// (<see cref="CircuitBound"/>), and the service back to normal within <see cref="RecoveryBound"/>.</summary>
    internal IReadOnlyList<string> Judge(Fault fault, FaultOutcome outcome)
    {
        var problems = new List<string>();
        if (outcome.Acknowledged == 0)
        {
            problems.Add("nothing was acknowledged: the load never ran");
        }

        if (!outcome.Loss.Passed)
        {
            problems.Add(outcome.Loss.Describe());
        }

        if (outcome.Duplicated > 0)
        {
            problems.Add($"{outcome.Duplicated} events persisted twice");
        }

        if (outcome.Errors.Keys.Where(k => !FaultAnswers.Contains(k)).ToList() is { Count: > 0 } others)
        {
            problems.Add($"answers other than 502, 503 and 504: {string.Join(", ", others.Select(k => $"{k} x{outcome.Errors[k]}"))}");
        }

        if (outcome.FrontEndPeakResidentBytes > ResidentBound)
        {
            problems.Add($"the front-end grew to {outcome.FrontEndPeakResidentBytes / (1024 * 1024)} MB resident");
        }

        if (fault.StopsEveryForward && fault.Duration >= CircuitMustOpen && !(outcome.CircuitOpened <= CircuitOpenBound.TotalSeconds))
        {
            problems.Add($"the circuit did not open within {CircuitOpenBound.TotalSeconds:0.0} s (attempt timeout + sampling window), though every forward failed: {(outcome.CircuitOpened is { } opened ? $"it opened {opened:0.0} s in" : "it never opened")}");
        }

        if (outcome.CircuitLastRefusal > CircuitBound.TotalSeconds)
        {
            problems.Add($"the circuit still refused {outcome.CircuitLastRefusal:0.0} s after the fault (attempt timeout + break: {CircuitBound.TotalSeconds:0.0} s)");
        }

        if (outcome.RecoverySeconds is not { } recovery || recovery > outcome.RecoveryBound)
        {
            problems.Add($"not back to normal within {outcome.RecoveryBound:0} s of the fault's end");
        }

        return problems;
    }

    public async ValueTask DisposeAsync()
    {
        _http.Dispose();
        await _topology.DisposeAsync();
        await _network.DisposeAsync();
    }

    /// <summary>
    /// The first second of <paramref name="timeline"/> from which every second to the end had only 2xx answers and no
    /// failure, and answers at all (but the last, which the end may cut short); null when the last seconds were not
    /// clean: the service was not back to normal when the run ended.
    /// </summary>
    internal static int? FirstCleanSecond(IReadOnlyList<TimelineSample> timeline)
    {
        int? first = null;
        for (var i = timeline.Count - 1; i >= 0; i--)
        {
            var s = timeline[i];
            var clean = s.Errors == 0 && s.BadResponses == 0 && (s.Requests > 0 || i == timeline.Count - 1);
            if (!clean)
            {
                break;
            }

            first = s.Second;
        }

        return first;
    }

    /// <summary>The load of one run: every request a job of its own, its id <paramref name="prefix"/> and a sequence
    /// number, so the store tells an event persisted twice from one of unknown outcome. One event loop, so each body goes
    /// out once, in order.</summary>
    private LoadOptions Load(string prefix, TimeSpan length)
    {
        var requests = (long)Math.Ceiling(_options.Rate * length.TotalSeconds);
        var options = new LoadOptions
        {
            Url = new Uri(_topology.Target, "ingest/event"),
            Connections = _options.Connections,
            Rate = _options.Rate,
            Duration = length,
            Warmup = TimeSpan.Zero,
            MaxRequests = requests,
            Threads = 1,
            ContentType = "application/json",
        };

        // More bodies than requests: a connection the server closes sends its unanswered requests again, with the next bodies.
        for (var i = 0L; i < requests + _options.Connections; i++)
        {
            var id = prefix + i.ToString("000000", CultureInfo.InvariantCulture);
            options.Bodies.Add(System.Text.Encoding.UTF8.GetBytes(SamplePayloads.Classic.Replace(ClassicJobId, id, StringComparison.Ordinal)));
        }

        return options;
    }

    private const string ClassicJobId = "c4bb6d130003";

    /// <summary>Puts the fault on after <see cref="FaultsOptions.Before"/> and lifts it after its duration, whatever
    /// happens meanwhile; when each happened.</summary>
    private async Task<(DateTimeOffset Applied, DateTimeOffset Lifted)> ScheduleAsync(Fault fault, int backEndPort, CancellationToken cancellationToken)
    {
        await Task.Delay(_options.Before, cancellationToken);
        var applied = DateTimeOffset.UtcNow;
        try
        {
            _network.Apply(fault, backEndPort);
            await Task.Delay(fault.Duration, cancellationToken);
        }
        finally
        {
            _network.Lift();
        }

        return (applied, DateTimeOffset.UtcNow);
    }

    private async Task<string?> PageAsync(Uri metrics, CancellationToken cancellationToken)
    {
        try
        {
            return await _http.GetStringAsync(metrics, cancellationToken);
        }
        catch (HttpRequestException)
        {
            return null;
        }
        catch (TaskCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            return null;
        }
    }
}
