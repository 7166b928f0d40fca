using System.Diagnostics;
using System.Reflection;
using System.Runtime;
using System.Runtime.InteropServices;

namespace Ingest.LoadGen.Internal;

/// <summary>Merges the workers' counts into the public <see cref="LoadResult"/>.</summary>
internal static class LoadResultBuilder
{
    public static LoadResult Build(LoadOptions options, RequestSet requests, int threads, RunState run, DateTimeOffset startedAt, Worker[] workers, bool warmedUp)
    {
        var latency = new LatencyHistogram();
        var sendDelay = new LatencyHistogram();
        var statusCodes = new long[1000];
        var seconds = workers[0].Statistics.RequestsPerSecond.Length;
        var perSecond = new long[seconds];
        var errorsPerSecond = new long[seconds];
        var badPerSecond = new long[seconds];
        var maxPerSecond = new long[seconds];
        long responses = 0, connect = 0, timeouts = 0, read = 0, write = 0, parse = 0, bytesRead = 0, bytesWritten = 0;
        long opened = 0, reconnects = 0, closedByServer = 0, warmup = 0, warmupSuccessful = 0, inFlight = 0, due = 0, unsent = 0;
        var first = long.MaxValue;
        var stoppedAt = run.MeasureStart;
        var lastStop = run.RunStart;
        var reason = LoadStopReason.Requests;
        foreach (var worker in workers)
        {
            var s = worker.Statistics;
            latency.Add(s.Latency);
            sendDelay.Add(s.SendDelay);
            for (var i = 0; i < statusCodes.Length; i++)
            {
                statusCodes[i] += s.StatusCodes[i];
            }

            for (var i = 0; i < seconds; i++)
            {
                perSecond[i] += s.RequestsPerSecond[i];
                errorsPerSecond[i] += s.ErrorsPerSecond[i];
                badPerSecond[i] += s.BadResponsesPerSecond[i];
                maxPerSecond[i] = Math.Max(maxPerSecond[i], s.MaxLatencyPerSecond[i]);
            }

            responses += s.Responses;
            connect += s.ConnectErrors;
            timeouts += s.Timeouts;
            read += s.ReadErrors;
            write += s.WriteErrors;
            parse += s.ParseErrors;
            bytesRead += s.BytesRead;
            bytesWritten += s.BytesWritten;
            opened += s.Opened;
            reconnects += s.Reconnects;
            closedByServer += s.ClosedByServer;
            warmup += s.WarmupRequests;
            warmupSuccessful += s.WarmupSuccessful;
            inFlight += s.InFlightAtEnd;
            due += s.Due;
            unsent += s.Unsent;
            first = Math.Min(first, s.FirstResponse);
            stoppedAt = Math.Max(stoppedAt, s.StoppedAt);
            lastStop = Math.Max(lastStop, s.StoppedAt);
            reason = Combine(reason, s.StopReason);
        }

        var frequency = (double)Stopwatch.Frequency;
        var elapsed = Math.Max(0, (stoppedAt - run.MeasureStart) / frequency);
        var nonSuccess = new SortedDictionary<int, long>();
        var allStatuses = new SortedDictionary<int, long>();
        long successful = 0;
        for (var code = 0; code < statusCodes.Length; code++)
        {
            if (statusCodes[code] == 0)
            {
                continue;
            }

            allStatuses[code] = statusCodes[code];
            if (code is >= 200 and < 300)
            {
                successful += statusCodes[code];
            }
            else
            {
                nonSuccess[code] = statusCodes[code];
            }
        }

        var usedSeconds = Math.Clamp((int)Math.Ceiling(elapsed), 1, seconds);
        var timeline = new List<TimelineSample>(usedSeconds);
        for (var i = 0; i < seconds; i++)
        {
            if (i < usedSeconds || perSecond[i] != 0)
            {
                timeline.Add(new TimelineSample(i, perSecond[i], errorsPerSecond[i], maxPerSecond[i] / 1000.0, badPerSecond[i]));
            }
        }

        var requestErrors = timeouts + read + write + parse;
        return new LoadResult
        {
            Settings = new LoadSettings
            {
                Url = options.Url!.ToString(),
                Method = options.EffectiveMethod,
                Mode = run.IsOpenLoop ? LoadMode.OpenLoop : LoadMode.ClosedLoop,
                Rate = options.Rate,
                Connections = options.Connections,
                Pipeline = options.Pipeline,
                Threads = threads,
                // What the warm-up lasted: the fixed one, where an adaptive one ended, or up to an early stop.
                WarmupSeconds = (Math.Min(run.MeasureStart, lastStop) - run.RunStart) / (double)Stopwatch.Frequency,
                WarmupLimitSeconds = options.WarmupLimit?.TotalSeconds,
                DurationSeconds = options.Duration.TotalSeconds,
                MaxRequests = options.MaxRequests,
                TimeoutSeconds = options.Timeout.TotalSeconds,
                BodySizes = requests.BodySizes,
                Headers = [.. options.Headers],
            },
            Environment = new RunEnvironment
            {
                ToolVersion = typeof(LoadRunner).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "unknown",
                Runtime = RuntimeInformation.FrameworkDescription,
                OperatingSystem = RuntimeInformation.OSDescription,
                ProcessorCount = Environment.ProcessorCount,
                GarbageCollector = DescribeGarbageCollector(),
            },
            StartedAt = startedAt,
            StopReason = reason,
            ElapsedSeconds = elapsed,
            Requests = responses + requestErrors,
            Responses = responses,
            SuccessfulResponses = successful,
            BadResponses = responses - successful,
            RequestsPerSecond = elapsed > 0 ? responses / elapsed : 0,
            BytesRead = bytesRead,
            BytesWritten = bytesWritten,
            Latency = Summarize(latency),
            Errors = new ErrorCounts
            {
                Connect = connect,
                Timeout = timeouts,
                Read = read,
                Write = write,
                Parse = parse,
                NonSuccessStatusCodes = nonSuccess,
            },
            StatusCodes = allStatuses,
            Connections = new ConnectionCounts { Opened = opened, Reconnects = reconnects, ClosedByServer = closedByServer },
            OpenLoop = run.IsOpenLoop
                ? new OpenLoopSummary { Rate = options.Rate!.Value, Due = due, Unsent = unsent, SendDelay = Summarize(sendDelay) }
                : null,
            WarmupRequests = warmup,
            WarmupSuccessfulResponses = warmupSuccessful,
            WarmupStable = warmedUp,
            InFlightAtEnd = inFlight,
            FirstResponseMilliseconds = first == long.MaxValue ? null : first * 1000 / frequency,
            Timeline = timeline,
        };
    }

    /// <summary>One cancelled worker means the run was cut short; otherwise the duration outranks the count.</summary>
    private static LoadStopReason Combine(LoadStopReason a, LoadStopReason b) =>
        a == LoadStopReason.Cancelled || b == LoadStopReason.Cancelled ? LoadStopReason.Cancelled :
        a == LoadStopReason.Duration || b == LoadStopReason.Duration ? LoadStopReason.Duration :
        LoadStopReason.Requests;

    public static string DescribeGarbageCollector() =>
        (GCSettings.IsServerGC ? "Server" : "Workstation") +
        (GCSettings.LatencyMode == GCLatencyMode.Batch ? ", non-concurrent" : ", concurrent");

    internal static LatencySummary Summarize(LatencyHistogram histogram)
    {
        const double Ms = 1000.0;
        var buckets = new List<HistogramBucket>();
        foreach (var (from, to, count) in histogram.Buckets())
        {
            buckets.Add(new HistogramBucket(from, to, count));
        }

        return new LatencySummary
        {
            Count = histogram.Count,
            MeanMs = histogram.Mean / Ms,
            StdDevMs = histogram.StandardDeviation() / Ms,
            MinMs = histogram.Count == 0 ? 0 : histogram.Min / Ms,
            P50Ms = histogram.ValueAtPercentile(50) / Ms,
            P75Ms = histogram.ValueAtPercentile(75) / Ms,
            P90Ms = histogram.ValueAtPercentile(90) / Ms,
            P95Ms = histogram.ValueAtPercentile(95) / Ms,
            P99Ms = histogram.ValueAtPercentile(99) / Ms,
            P999Ms = histogram.ValueAtPercentile(99.9) / Ms,
            MaxMs = histogram.Max / Ms,
            Histogram = buckets,
        };
    }
}
