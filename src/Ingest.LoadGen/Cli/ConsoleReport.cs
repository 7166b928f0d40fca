using System.Globalization;
using System.Text;

namespace Ingest.LoadGen.Cli;

/// <summary>The human summary printed after a run, in the spirit of wrk's.</summary>
internal static class ConsoleReport
{
    public static string Header(LoadOptions options, int threads)
    {
        var mode = options.Rate is { } rate
            ? string.Create(CultureInfo.InvariantCulture, $"open loop at {rate:N0} req/s")
            : "closed loop";
        return string.Create(CultureInfo.InvariantCulture,
            $"Ingest.LoadGen {options.EffectiveMethod} {options.Url}{Environment.NewLine}" +
            $"  {mode}, {options.Connections} connections, pipeline {options.Pipeline}, {threads} threads, " +
            $"warm-up {options.Warmup.TotalSeconds:0.###} s{(options.WarmupLimit is { } limit ? $" and longer while still rising, up to {limit.TotalSeconds:0.###} s" : "")}, duration {options.Duration.TotalSeconds:0.###} s, " +
            $"at most {options.MaxRequests:N0} requests, timeout {options.Timeout.TotalSeconds:0.###} s{Environment.NewLine}" +
            $"  GC: {Internal.LoadResultBuilder.DescribeGarbageCollector()}");
    }

    public static string Format(LoadResult result)
    {
        var c = CultureInfo.InvariantCulture;
        var text = new StringBuilder();
        var l = result.Latency;
        text.AppendLine(c, $"Measured {result.ElapsedSeconds:0.00} s (stopped: {result.StopReason switch { LoadStopReason.Duration => "duration over", LoadStopReason.Requests => "all requests answered", _ => "cancelled" }})");
        text.AppendLine(c, $"  Requests      {result.Requests:N0}  (responses {result.Responses:N0}, 2xx {result.SuccessfulResponses:N0}, errors {result.Requests - result.Responses:N0}; in flight at end {result.InFlightAtEnd:N0}; warm-up {result.WarmupRequests:N0} in {result.Settings.WarmupSeconds:0.#} s{(result.Settings.WarmupLimitSeconds is null ? "" : result.WarmupStable ? ", stable" : ", limit reached while still rising")})");
        text.AppendLine(c, $"  Requests/sec  {result.RequestsPerSecond:N1}");
        text.AppendLine(c, $"  Transfer      {Megabytes(result.BytesRead, result.ElapsedSeconds):N2} MB/s read, {Megabytes(result.BytesWritten, result.ElapsedSeconds):N2} MB/s written");
        text.AppendLine(c, $"  Latency (ms)  mean {l.MeanMs:N3}  stdev {l.StdDevMs:N3}  min {l.MinMs:N3}");
        text.AppendLine(c, $"                p50 {l.P50Ms:N3}  p75 {l.P75Ms:N3}  p90 {l.P90Ms:N3}  p95 {l.P95Ms:N3}  p99 {l.P99Ms:N3}  p99.9 {l.P999Ms:N3}  max {l.MaxMs:N3}");
        if (result.OpenLoop is { } open)
        {
            var d = open.SendDelay;
            text.AppendLine(c, $"  Open loop     {open.Rate:N0} req/s asked, {open.Due:N0} due, {open.Unsent:N0} never sent; send delay (ms) p50 {d.P50Ms:N3}  p99 {d.P99Ms:N3}  max {d.MaxMs:N3}");
        }

        text.Append("  Status codes ");
        foreach (var (code, count) in result.StatusCodes)
        {
            text.Append(c, $" {code}: {count:N0}");
        }

        text.AppendLine(result.StatusCodes.Count == 0 ? " none" : "");
        var e = result.Errors;
        text.AppendLine(c, $"  Errors        connect {e.Connect:N0}, timeout {e.Timeout:N0}, read {e.Read:N0}, write {e.Write:N0}, parse {e.Parse:N0}; non-2xx responses {result.BadResponses:N0}");
        text.AppendLine(c, $"  Connections   opened {result.Connections.Opened:N0}, reconnects {result.Connections.Reconnects:N0}, closed by server {result.Connections.ClosedByServer:N0}");
        if (result.FirstResponseMilliseconds is { } first)
        {
            text.AppendLine(c, $"  First response {first:N1} ms after start");
        }

        text.Append("  Requests per second:");
        foreach (var sample in result.Timeline)
        {
            text.Append(c, $" {sample.Requests}");
        }

        text.AppendLine();
        return text.ToString();
    }

    private static double Megabytes(long bytes, double seconds) => seconds > 0 ? bytes / seconds / (1024 * 1024) : 0;
}
