using System.Diagnostics;
using System.Globalization;
using System.Text.Json;

namespace Ingest.Lab.Running;

/// <summary>
/// wrk from Debian, as the cross-check users already trust. A Lua script sets the method, body and
/// pipelining, and prints the figures as one JSON line from wrk's own <c>done</c> hook, so nothing is scraped
/// from its human output.
/// </summary>
internal sealed class WrkDriver : ILoadDriver
{
    private const string Marker = "INGEST-WRK ";

    /// <summary>Percentiles of the curve wrk's histogram is read at.</summary>
    private static readonly double[] CurvePercentiles = [0, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.99, 100];

    public string Name => "wrk";

    public async Task<string?> UnavailableAsync(CancellationToken cancellationToken) =>
        await Results.MachineInfo.FirstLineAsync("sh", ["-c", "command -v wrk"], cancellationToken) is null ? "wrk is not installed (Debian package wrk)" : null;

    public async Task<LoadRun> RunAsync(LoadPhase phase, Action<int> onStarted, CancellationToken cancellationToken)
    {
        var script = Path.ChangeExtension(phase.ResultFile, ".lua");
        await File.WriteAllTextAsync(script, Script(phase), cancellationToken);
        var threads = Math.Min(Environment.ProcessorCount, phase.Load.Connections);
        var url = new Uri(phase.Target, phase.Load.Path).ToString();
        string[] arguments =
        [
            "-t", threads.ToString(CultureInfo.InvariantCulture),
            "-c", phase.Load.Connections.ToString(CultureInfo.InvariantCulture),
            "-d", $"{Math.Max(1, (int)phase.Duration.TotalSeconds).ToString(CultureInfo.InvariantCulture)}s",
            "--timeout", phase.TimeoutArgument,
            "-s", script,
            url,
        ];
        var (file, args) = Pinning.Wrap(phase.Cpus, "wrk", arguments);
        var start = new ProcessStartInfo(file, args) { RedirectStandardOutput = true, RedirectStandardError = true };
        using var process = Process.Start(start) ?? throw new InvalidOperationException("wrk did not start.");
        onStarted(process.Id);
        var stdout = process.StandardOutput.ReadToEndAsync(cancellationToken);
        var stderr = process.StandardError.ReadToEndAsync(cancellationToken);
        await process.WaitForExitAsync(cancellationToken);
        var output = await stdout;
        await File.WriteAllTextAsync(phase.ResultFile + ".txt", output + await stderr, cancellationToken);
        var line = output.Split('\n').FirstOrDefault(l => l.StartsWith(Marker, StringComparison.Ordinal))
            ?? throw new InvalidOperationException($"wrk printed no result (exit {process.ExitCode}): {(await stderr).Trim()}");
        return Parse(line[Marker.Length..], phase, Path.GetRelativePath(phase.RunFolder, phase.ResultFile + ".txt"));
    }

    private static LoadRun Parse(string json, LoadPhase phase, string rawResult)
    {
        using var document = JsonDocument.Parse(json);
        var root = document.RootElement;
        var seconds = root.GetProperty("duration_us").GetDouble() / 1e6;
        var requests = root.GetProperty("requests").GetInt64();
        var nonSuccess = root.GetProperty("status").GetInt64();
        var errors = new Dictionary<string, long>();
        foreach (var kind in new[] { "connect", "read", "write", "timeout" })
        {
            var count = root.GetProperty(kind).GetInt64();
            if (count > 0)
            {
                errors[kind] = count;
            }
        }

        if (nonSuccess > 0)
        {
            errors["status non-2xx"] = nonSuccess;
        }

        var curve = root.GetProperty("curve").EnumerateArray().Select(p => new[] { p[0].GetDouble(), p[1].GetDouble() / 1000 }).ToList();
        double At(double percentile) => curve.First(p => p[0] >= percentile)[1];
        return new LoadRun
        {
            Driver = "wrk",
            Seconds = seconds,
            Responses = requests,
            RequestsPerSecond = requests / seconds,
            Successful = requests - nonSuccess,
            // wrk does not say how many requests were in flight when it stopped: at most one per connection
            // (times the pipeline depth) may have reached the server unanswered. Nor does it tell a 504 (outcome
            // unknown) from other non-2xx answers: all of them count as unknown.
            Unknown = root.GetProperty("read").GetInt64() + root.GetProperty("write").GetInt64() + root.GetProperty("timeout").GetInt64()
                + nonSuccess + ((long)phase.Load.Connections * phase.Load.Pipeline),
            Latency = new LatencyFigures(root.GetProperty("mean_us").GetDouble() / 1000, At(50), At(75), At(90), At(99), At(99.9), At(100)) { Curve = curve },
            Errors = errors,
            Timeline = [],
            RawResult = rawResult,
        };
    }

    private static string Script(LoadPhase phase)
    {
        var lua = new System.Text.StringBuilder();
        lua.AppendLine("-- Generated by Ingest.Lab: the scenario's request, and its figures as one JSON line.");
        lua.AppendLine(CultureInfo.InvariantCulture, $"wrk.method = \"{phase.Load.Method}\"");
        if (phase.Load.Method == "POST")
        {
            lua.AppendLine(CultureInfo.InvariantCulture, $"local f = assert(io.open(\"{phase.PayloadFile}\", \"rb\"))");
            lua.AppendLine("wrk.body = f:read(\"*a\")");
            lua.AppendLine("f:close()");
            lua.AppendLine(CultureInfo.InvariantCulture, $"wrk.headers[\"Content-Type\"] = \"{phase.Load.ContentType}\"");
        }

        if (phase.Load.Pipeline > 1)
        {
            lua.AppendLine(CultureInfo.InvariantCulture, $$"""
                local depth = {{phase.Load.Pipeline}}
                local pipelined
                init = function(args)
                  local r = {}
                  for i = 1, depth do r[i] = wrk.format() end
                  pipelined = table.concat(r)
                end
                request = function() return pipelined end
                """);
        }

        var percentiles = string.Join(", ", CurvePercentiles.Select(p => p.ToString(CultureInfo.InvariantCulture)));
        lua.AppendLine(CultureInfo.InvariantCulture, $$"""
            done = function(summary, latency, requests)
              local points = {}
              for _, p in ipairs({ {{percentiles}} }) do
                local v = p == 100 and latency.max or latency:percentile(p)
                table.insert(points, string.format("[%g,%d]", p, v))
              end
              io.write(string.format('{{Marker}}{"requests":%d,"duration_us":%d,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"mean_us":%f,"curve":[%s]}\n',
                summary.requests, summary.duration, summary.errors.status, summary.errors.connect, summary.errors.read,
                summary.errors.write, summary.errors.timeout, latency.mean, table.concat(points, ",")))
            end
            """);
        return lua.ToString();
    }
}
