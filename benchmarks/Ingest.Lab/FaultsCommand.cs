using System.Globalization;
using System.Text;
using System.Text.Json;
using Ingest.Lab.Faults;
using Ingest.Lab.Processes;
using Ingest.Lab.Results;
using Ingest.Lab.Running;

namespace Ingest.Lab;

/// <summary>
/// <c>faults</c>: network faults between the front-end and the back-end, each under a steady load, on a network of
/// namespaces the command makes and removes (<see cref="FaultNetwork"/>; as root, like crank/run-netns.sh). For each
/// fault it checks what docs/reliability.md promises — nothing acknowledged lost, nothing persisted twice, only 502, 503
/// and 504 while it lasts, the front-end's memory bounded, the circuit opening and closing as configured, and service
/// back to normal within a stated time — and prints a row: requests, errors by status, time to recover, lost,
/// duplicated. Refuses to start, and makes nothing, when it is not root or when its namespaces, links or addresses exist.
/// </summary>
internal sealed class FaultsCommand(RepositoryLayout layout, TextWriter output, TextWriter error)
{
    private static readonly JsonSerializerOptions Indented = new() { WriteIndented = true, PropertyNamingPolicy = JsonNamingPolicy.CamelCase };

    /// <summary>0 when every fault was survived as promised, 1 when one was not or the command refused to run.</summary>
    public async Task<int> RunAsync(FaultsOptions options, string command, CancellationToken cancellationToken)
    {
        if (Environment.IsPrivilegedProcess)
        {
            // The tools, as the lab installs what a run needs (nothing is said when they are there).
            await Toolchain.EnsureAsync(layout, NetworkTools.Packages, output, cancellationToken);
        }

        if (FaultNetwork.Refusal() is { } refusal)
        {
            await error.WriteLineAsync($"faults: {refusal}");
            return 1;
        }

        var faults = Fault.For(options.FaultDuration, options.BandwidthKilobits).Where(f => options.Only.Count == 0 || options.Only.Contains(f.Name)).ToList();
        var machine = await MachineInfo.ReadAsync(cancellationToken);
        var commit = await MachineInfo.CommitAsync(layout.Root, cancellationToken);
        var folder = Path.Combine(layout.Results, DateTimeOffset.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture) + "-faults");
        Directory.CreateDirectory(folder);
        var artifacts = new Artifacts(layout, new Publisher(layout, output), output);

        var outcomes = new List<FaultOutcome>();
        await using (var bench = await FaultBench.StartAsync(artifacts, options, folder, output, cancellationToken))
        {
            output.WriteLine($"Steady load: {Format.Rps(options.Rate)} requests/s over {options.Connections} connections, {Seconds(options.Before)} before each fault and {Seconds(bench.RecoveryBound)} + 3 s after it.");
            output.WriteLine($"Bounds: back to normal within {Seconds(bench.RecoveryBound)} of a fault's end (forward timeout {bench.Forwarding.TimeoutMilliseconds} ms, or attempt timeout {bench.Forwarding.AttemptTimeoutMilliseconds} ms + break {bench.Forwarding.BreakerBreakSeconds} s, whichever is longer, + 2 s); " +
                $"the circuit open within {Seconds(bench.CircuitOpenBound)} of a fault that fails every forward for {Seconds(bench.CircuitMustOpen)} or more (attempt timeout + sampling {bench.Forwarding.BreakerSamplingSeconds} s), refusing no longer than {Seconds(bench.CircuitBound)} after its end (attempt timeout + break).");
            foreach (var fault in faults)
            {
                output.WriteLine($"{fault.Name}: {fault.What}, {Seconds(fault.Duration)}");
                var outcome = await bench.RunAsync(fault, cancellationToken);
                outcomes.Add(outcome);
                output.WriteLine(outcome.Passed ? "  survived as promised" : "  FAILED: " + string.Join("; ", outcome.Problems));
            }
        }

        var table = Table(outcomes);
        output.WriteLine();
        output.Write(table);
        var header = $"{DateTimeOffset.UtcNow:yyyy-MM-dd}, commit {commit ?? "unknown"}, {machine.CpuModel} ({machine.Cores} cores), kernel {machine.Kernel}: `{command}`";
        await File.WriteAllTextAsync(Path.Combine(folder, "faults.md"), header + "\n\n" + table, cancellationToken);
        await File.WriteAllTextAsync(Path.Combine(folder, "faults.json"), JsonSerializer.Serialize(new { machine, commit, command, options, outcomes }, Indented), cancellationToken);
        output.WriteLine($"Written: {Path.Combine(folder, "faults.md")}");
        var passed = outcomes.All(o => o.Passed);
        output.WriteLine(passed ? "Every fault was survived as promised." : "A fault was NOT survived as promised.");
        return passed ? 0 : 1;
    }

    /// <summary>The table docs/reliability.md keeps: one row per fault.</summary>
    internal static string Table(IReadOnlyList<FaultOutcome> outcomes)
    {
        var text = new StringBuilder();
        text.AppendLine("| fault | for | requests | errors by status | time to recover | lost | duplicated | circuit | front-end peak RSS | verdict |");
        text.AppendLine("|---|---|---:|---|---|---:|---:|---|---:|---|");
        foreach (var o in outcomes)
        {
            var errors = o.Errors.Count == 0 ? "none" : string.Join(", ", o.Errors.OrderBy(e => e.Key, StringComparer.Ordinal).Select(e => $"{e.Key.Replace("status ", "", StringComparison.Ordinal)} ×{e.Value.ToString("N0", CultureInfo.InvariantCulture)}"));
            var recovery = o.RecoverySeconds is { } s ? $"{s:0} s" : $"not within {o.RecoveryBound:0} s";
            var circuit = o.CircuitOpened is { } opened
                ? $"opened {opened:0.0} s in, last refusal {Signed(o.CircuitLastRefusal!.Value)} s after the end"
                : "stayed closed";
            text.AppendLine(CultureInfo.InvariantCulture,
                $"| {o.Fault} ({o.What}) | {o.Seconds:0} s | {o.Requests:N0} | {errors} | {recovery} | {o.Loss.Lost} | {o.Duplicated} | {circuit} | {Format.Mb(o.FrontEndPeakResidentBytes)} | {(o.Passed ? "survived" : "**FAILED**: " + string.Join("; ", o.Problems))} |");
        }

        return text.ToString();
    }

    private static string Signed(double seconds) => seconds.ToString("+0.0;-0.0;0.0", CultureInfo.InvariantCulture);

    private static string Seconds(TimeSpan value) => Cli.OptionKinds.Seconds(value);
}
