using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using Ingest.Wire.Linux;

namespace Ingest.LoadGen.Internal;

/// <summary>Prepares a run (requests encoded, address resolved), starts one <see cref="Worker"/> thread per
/// event loop, waits for them and turns their counts into a <see cref="LoadResult"/>.</summary>
internal static class LoadEngine
{
    public static async Task<LoadResult> RunAsync(LoadOptions options, CancellationToken cancellationToken)
    {
        if (!OperatingSystem.IsLinux())
        {
            throw new PlatformNotSupportedException("Ingest.LoadGen drives its sockets with epoll: it runs on Linux only.");
        }

        var problems = options.Validate();
        if (problems.Count > 0)
        {
            throw new ArgumentException(string.Join(Environment.NewLine, problems), nameof(options));
        }

        var requests = await RequestSet.CreateAsync(options, cancellationToken);
        var endPoint = await ResolveAsync(options.Url!, cancellationToken);
        var address = new byte[SocketAddressCodec.MaxLength];
        address = address[..SocketAddressCodec.Write(endPoint, address)];
        var threads = Math.Min(options.Threads, options.Connections);
        var seconds = (int)Math.Ceiling(options.Duration.TotalSeconds) + 1;

        var startedAt = DateTimeOffset.UtcNow;
        var run = new RunState(options, Stopwatch.GetTimestamp());
        var workers = new Worker[threads];
        for (var w = 0; w < threads; w++)
        {
            // Connection i goes to worker i % threads.
            var connections = (options.Connections / threads) + (w < options.Connections % threads ? 1 : 0);
            workers[w] = new Worker(run, requests, address, endPoint.AddressFamily, w, threads, connections, options.Pipeline, seconds);
        }

        var finished = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var running = threads;
        foreach (var worker in workers)
        {
            var thread = new Thread(() =>
            {
                try
                {
                    worker.Run();
                }
                catch (Exception exception) when (exception is not OutOfMemoryException)
                {
                    run.Fail(exception); // surfaces from RunAsync below; the other workers stop
                }
                finally
                {
                    if (Interlocked.Decrement(ref running) == 0)
                    {
                        finished.SetResult();
                    }
                }
            })
            {
                IsBackground = true,
                Name = "loadgen-loop",
            };
            thread.Start();
        }

        var warmedUp = true;
        using (cancellationToken.Register(run.RequestStop))
        {
            if (options.WarmupLimit is not null)
            {
                warmedUp = await AdaptiveWarmUp.RunAsync(run, workers, options, finished.Task);
            }

            await finished.Task;
        }

        if (run.Failure is { } failure)
        {
            throw new InvalidOperationException($"The load generator failed: {failure.Message}", failure);
        }

        return LoadResultBuilder.Build(options, requests, threads, run, startedAt, workers, warmedUp);
    }

    /// <summary>An IP literal as is; a name through DNS, preferring IPv4 (what wrk and most local servers use).</summary>
    private static async Task<IPEndPoint> ResolveAsync(Uri url, CancellationToken cancellationToken)
    {
        var host = url.IdnHost;
        if (!IPAddress.TryParse(host, out var address))
        {
            IPAddress[] addresses;
            try
            {
                addresses = await Dns.GetHostAddressesAsync(host, cancellationToken);
            }
            catch (SocketException exception)
            {
                throw new ArgumentException($"--url host '{host}' could not be resolved: {exception.Message} (LoadOptions.Url).", nameof(url), exception);
            }

            address = Array.Find(addresses, a => a.AddressFamily == AddressFamily.InterNetwork) ??
                (addresses.Length > 0 ? addresses[0] : throw new ArgumentException($"--url host '{host}' did not resolve to any address (LoadOptions.Url).", nameof(url)));
        }

        return new IPEndPoint(address, url.Port);
    }
}
