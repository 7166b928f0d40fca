using System.Runtime.InteropServices;
using Ingest.Lab.Catalogue;
using Ingest.Pgo;

namespace Ingest.Lab.Running;

/// <summary>
/// Profile-guided Native AOT (<see cref="ServiceSpec.ProfileGuided"/>): before such a scenario runs, its JIT twin (the
/// same services, settings, environment and load, on the JIT) runs for <see cref="LabOptions.Training"/> with the
/// runtime writing its instrumentation data at exit (<c>DOTNET_WritePGOData</c>); benchmarks/Ingest.Pgo turns each
/// service's data into a .mibc, which the Native AOT publish is then given (<c>IngestAotProfile</c>). Then the code is
/// laid out by a trace of that build: it runs once more under the same load with benchmarks/Ingest.Pgo's code tracer
/// preloaded, which records each page of code the service touches; the functions on those pages are the order the
/// final publish is given (<c>IngestAotLayout</c>), so the code that runs sits together and the kernel maps fewer pages
/// of the program. Once per scenario per run: the rounds of a run measure the same build.
/// </summary>
internal sealed class ProfileTraining(Artifacts artifacts, ILoadDriver loadGenerator, LabOptions options, Pinning pinning, string runFolder)
{
    private readonly Dictionary<string, Task<Scenario>> _trained = new(StringComparer.Ordinal);

    public static bool Needs(Scenario scenario) =>
        scenario.FrontEnd.ProfileGuided || scenario.BackEnd is { ProfileGuided: true };

    /// <summary>The scenario with its profile-guided services given their trained profiles (trained now, or earlier in this run).</summary>
    public Task<Scenario> ApplyAsync(Scenario scenario, Action<string> progress, CancellationToken cancellationToken)
    {
        if (!Needs(scenario))
        {
            return Task.FromResult(scenario);
        }

        if (!_trained.TryGetValue(scenario.Id, out var trained))
        {
            _trained.Add(scenario.Id, trained = TrainAsync(scenario, progress, cancellationToken));
        }

        return trained;
    }

    private async Task<Scenario> TrainAsync(Scenario scenario, Action<string> progress, CancellationToken cancellationToken)
    {
        var (profiled, folder) = await ProfileAsync(scenario, progress, cancellationToken);
        return await LayOutAsync(profiled, folder, progress, cancellationToken);
    }

    /// <summary>
    /// The first half of a training: the scenario's JIT twin under its load, and each profile-guided service's data made
    /// into a .mibc (<see cref="ServiceSpec.Profile"/>); no layout. Returns the folder that holds the runtime's text data
    /// (<c>front-end.pgo.txt</c>, <c>back-end.pgo.txt</c>) beside the profiles. The lab's <c>train</c> command ships these.
    /// </summary>
    public async Task<(Scenario Profiled, string Folder)> ProfileAsync(Scenario scenario, Action<string> progress, CancellationToken cancellationToken)
    {
        var folder = Path.Combine(runFolder, "training", scenario.Set, scenario.Name);
        Directory.CreateDirectory(folder);
        var frontEndData = Path.Combine(folder, TextData(ServiceRole.FrontEnd));
        var backEndData = Path.Combine(folder, TextData(ServiceRole.BackEnd));
        var twin = scenario with
        {
            FrontEnd = Twin(scenario.FrontEnd, frontEndData),
            BackEnd = scenario.BackEnd is { } backEnd ? Twin(backEnd, backEndData) : null,
        };

        progress($"training: the JIT twin for {options.Training.TotalSeconds:0} s");
        await RunUnderLoadAsync(twin, folder, "load.json", cancellationToken);

        // Disposing the topology stopped the services with SIGTERM, and the runtime wrote its data as they exited.
        var profiled = scenario with
        {
            FrontEnd = await ConvertAsync(scenario.FrontEnd, ServiceRole.FrontEnd, frontEndData, Path.Combine(folder, scenario.Name + ".front-end.mibc"), progress, cancellationToken),
            BackEnd = scenario.BackEnd is { } backEndToProfile
                ? await ConvertAsync(backEndToProfile, ServiceRole.BackEnd, backEndData, Path.Combine(folder, scenario.Name + ".back-end.mibc"), progress, cancellationToken)
                : null,
        };
        return (profiled, folder);
    }

    /// <summary>The file a training's JIT twin of <paramref name="role"/> wrote its instrumentation data to, in the training's folder.</summary>
    public static string TextData(ServiceRole role) => role == ServiceRole.FrontEnd ? "front-end.pgo.txt" : "back-end.pgo.txt";

    // Starts the scenario's services, drives them with its load for the training time, stops them (SIGTERM). Bounded by
    // time only: a training is not a measurement, and a run's --requests (a smoke run's few hundred) would end it before
    // the runtime has instrumented its hot methods or the hot code has run.
    private async Task RunUnderLoadAsync(Scenario scenario, string folder, string loadFile, CancellationToken cancellationToken)
    {
        var payload = PayloadFiles.Write(folder, scenario.Load.Payload);
        await using var topology = await Topology.StartAsync(scenario, artifacts, pinning, ServiceLimits.None, folder, cancellationToken);
        var phase = new LoadPhase(topology.Target, scenario.Load, options.Training, MaxRequests: null, payload, Path.Combine(folder, loadFile), pinning.LoadCpus, runFolder, scenario.ResponseTimeout);
        var run = await loadGenerator.RunAsync(phase, _ => { }, cancellationToken);
        if (run.Successful == 0)
        {
            throw new InvalidOperationException($"the training load ({loadFile}) got no successful response:\n" + topology.LastLines());
        }
    }

    // The profile-guided build runs under the training load with the code tracer preloaded; each traced service gets
    // the order of the functions on the pages it touched.
    private async Task<Scenario> LayOutAsync(Scenario profiled, string folder, Action<string> progress, CancellationToken cancellationToken)
    {
        var tracer = await CodeTracer.BuildAsync(Path.Combine(runFolder, "training"), cancellationToken);
        var frontEndTrace = Path.Combine(folder, "front-end.code-trace");
        var backEndTrace = Path.Combine(folder, "back-end.code-trace");
        var traced = profiled with
        {
            FrontEnd = Traced(profiled.FrontEnd, tracer, frontEndTrace),
            BackEnd = profiled.BackEnd is { } backEnd ? Traced(backEnd, tracer, backEndTrace) : null,
        };

        progress($"training: the code trace of the profile-guided build for {options.Training.TotalSeconds:0} s");
        await RunUnderLoadAsync(traced, folder, "trace-load.json", cancellationToken);

        return profiled with
        {
            FrontEnd = await OrderAsync(profiled.FrontEnd, ServiceRole.FrontEnd, frontEndTrace, Path.Combine(folder, profiled.Name + ".front-end.order"), progress, cancellationToken),
            BackEnd = profiled.BackEnd is { } laidOut
                ? await OrderAsync(laidOut, ServiceRole.BackEnd, backEndTrace, Path.Combine(folder, profiled.Name + ".back-end.order"), progress, cancellationToken)
                : null,
        };
    }

    private ServiceSpec Traced(ServiceSpec spec, string tracer, string traceFile) =>
        spec.ProfileGuided ? TracedBuild(spec).WithEnvironment(CodeTracer.Environment(tracer, traceFile)) : spec;

    // The build the trace runs: the profile-guided one, whose functions the order then names. A smoke run, which checks
    // that the pipeline works rather than what it measures, traces the plain Native AOT build of the same service
    // instead (function names do not depend on the profile), which the smoke publishes anyway: two Native AOT
    // publishes fewer in CI.
    private ServiceSpec TracedBuild(ServiceSpec spec) => options.Smoke ? spec with { ProfileGuided = false, Profile = null } : spec;

    // The order's file name is unique to the scenario and role, as the profile's is: the final build's folder is named after both.
    private async Task<ServiceSpec> OrderAsync(ServiceSpec spec, ServiceRole role, string traceFile, string order, Action<string> progress, CancellationToken cancellationToken)
    {
        if (!spec.ProfileGuided)
        {
            return spec;
        }

        var (program, _, missing) = await artifacts.ResolveAsync(TracedBuild(spec), role, cancellationToken);
        if (program is null)
        {
            throw new InvalidOperationException($"the {role}'s traced build is missing: {missing}");
        }

        var result = CodeLayout.Write(traceFile, program, order);
        await File.WriteAllTextAsync(Path.ChangeExtension(order, ".log"), result + "\n", cancellationToken);
        progress($"{role} layout: {result}");
        return spec with { Layout = order };
    }

    private static ServiceSpec Twin(ServiceSpec spec, string dataFile) =>
        !spec.ProfileGuided ? spec : OnTheJit(spec).WithEnvironment(("DOTNET_WritePGOData", "1"), ("DOTNET_PGODataPath", dataFile));

    private static ServiceSpec OnTheJit(ServiceSpec spec) => spec with { NativeAot = false, ProfileGuided = false };

    // The profile's file name is unique to the scenario and role: the profiled build's publish folder is named after it.
    private async Task<ServiceSpec> ConvertAsync(ServiceSpec spec, ServiceRole role, string dataFile, string profile, Action<string> progress, CancellationToken cancellationToken)
    {
        if (!spec.ProfileGuided)
        {
            return spec;
        }

        if (!File.Exists(dataFile))
        {
            throw new InvalidOperationException($"the {role}'s JIT twin wrote no instrumentation data ({dataFile}) as it stopped");
        }

        // The twin's own publish folder holds the Ingest assemblies it ran; the shared frameworks are the ones this
        // lab runs on, as the twin did.
        var (_, twinArguments, _) = await artifacts.ResolveAsync(OnTheJit(spec), role, cancellationToken);
        var assemblies = Path.GetDirectoryName(twinArguments[0])!;
        using var output = new StringWriter();
        var exit = PgoCommand.Run([dataFile, "--out", profile, "--assemblies", assemblies], output, RuntimeEnvironment.GetRuntimeDirectory());
        await File.WriteAllTextAsync(Path.ChangeExtension(profile, ".log"), output.ToString(), cancellationToken);
        if (exit != 0)
        {
            throw new InvalidOperationException($"the {role}'s profile could not be made: {output}");
        }

        progress($"{role} profile: {output.ToString().Split('\n')[0].Split(": ", 2)[^1]}");
        return spec with { Profile = profile };
    }
}
