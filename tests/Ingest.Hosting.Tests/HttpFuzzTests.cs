using System.Collections.Concurrent;
using System.Globalization;
using System.Net;
using System.Text;
using Ingest.Core.Samples;
using Ingest.Testing;
using Ingest.Transports;
using Xunit.Abstractions;

namespace Ingest.Hosting.Tests;

/// <summary>
/// HTTP-level fuzz of the running services on loopback, on every transport: requests of the contract, mutated in their
/// request line, headers, framing and body (<see cref="FuzzedRequest"/>), sent as raw bytes to the front-end and the
/// back-end. No answer may be a 5xx, no request may hang (an answer or a close within the time a client gives up
/// plus a grace), and both services must still serve the classic payload afterwards. Seeded: the seed is printed, and
/// each failure names its request's index, what was mutated and the bytes. A short run in CI; longer ones with
/// <c>bash tests/fuzz/run.sh http --seconds N</c> or the INGEST_HTTP_FUZZ_* variables below.
/// </summary>
public sealed class HttpFuzzTests(ITestOutputHelper output)
{
    /// <summary>Requests per transport (INGEST_HTTP_FUZZ_REQUESTS): a few seconds per transport in CI.</summary>
    private static readonly int Requests = Setting("INGEST_HTTP_FUZZ_REQUESTS", 240);

    /// <summary>Stops sending after this long per transport (INGEST_HTTP_FUZZ_SECONDS), whatever the count.</summary>
    private static readonly int Seconds = Setting("INGEST_HTTP_FUZZ_SECONDS", 60);

    /// <summary>The run's seed (INGEST_HTTP_FUZZ_SEED): fixed in CI, so a run replays; any number for a new corpus.</summary>
    private static readonly int Seed = Setting("INGEST_HTTP_FUZZ_SEED", 20261122);

    /// <summary>Connections in flight at once: requests that wait for a body that never comes cost the idle time each.</summary>
    private const int Concurrency = 8;

    /// <summary>How long a request may wait for its answer before the client closes its side (a body that never ends).</summary>
    private static readonly TimeSpan Idle = TimeSpan.FromMilliseconds(750);

    /// <summary>After the client closed its side, the server must answer or close within this: otherwise it hangs.</summary>
    private static readonly TimeSpan Deadline = TimeSpan.FromSeconds(10);

    public static TheoryData<TransportKind> Transports => new(TransportKinds.InThisBuild);

    [Theory]
    [MemberData(nameof(Transports))]
    public async Task MutatedRequestsGetNo5xxAndNoHangAndTheServicesStillServe(TransportKind transport)
    {
        await using var flow = await Flow.StartAsync(new FlowConfiguration(Transport: transport.ToString()));
        output.WriteLine($"HTTP fuzz on {transport}: seed {Seed}, up to {Requests} requests or {Seconds} s (INGEST_HTTP_FUZZ_SEED={Seed} replays it).");

        var failures = new ConcurrentBag<(int Index, string Failure)>();
        var statuses = new ConcurrentDictionary<int, int>();
        using var stop = new CancellationTokenSource(TimeSpan.FromSeconds(Seconds));
        var sent = 0;
        var options = new ParallelOptions { MaxDegreeOfParallelism = Concurrency, CancellationToken = stop.Token };
        try
        {
            await Parallel.ForAsync(0, Requests, options, (i, _) => SendOneAsync(i));
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            // The time bound: the requests in flight finished, no new one started.
        }

        async ValueTask SendOneAsync(int i)
        {
            Interlocked.Increment(ref sent);
            var random = new Random(unchecked((Seed * 7919) + i));
            var backEnd = i % 3 == 2;
            var request = FuzzedRequest.Corpus(backEnd, random);
            request.Mutate(random);
            var (status, hung) = await RawHttp.FirstAnswerAsync((backEnd ? flow.BackEnd : flow.FrontEnd).BaseAddress, request.Wire, Idle, Deadline);
            statuses.AddOrUpdate(status, 1, (_, n) => n + 1);
            if (hung || (status >= 500 && !(status == 505 && !SpeaksHttp11(request.Wire))))
            {
                failures.Add((i, $"request {i} to the {(backEnd ? "back-end" : "front-end")}: {(hung ? "no answer and no close" : status.ToString(CultureInfo.InvariantCulture))} " +
                    $"after {request.Description}\n{Printable(request.Wire)}"));
            }
        }

        output.WriteLine($"{sent} requests; answers: {string.Join(", ", statuses.OrderBy(s => s.Key).Select(s => $"{(s.Key == 0 ? "closed" : s.Key)} x{s.Value}"))}");
        Assert.True(failures.IsEmpty, $"seed {Seed} on {transport}: {failures.Count} failures; the first:\n" +
            string.Join("\n\n", failures.OrderBy(f => f.Index).Take(5).Select(f => f.Failure)));

        using var classic = await flow.Client.PostEventAsync(SamplePayloads.Classic);
        Assert.Equal(HttpStatusCode.OK, classic.StatusCode);
        using var backEndClient = TestClient.Create(flow.BackEnd.BaseAddress);
        using var stats = await backEndClient.GetAsync(new Uri("/ingest/stats", UriKind.Relative));
        Assert.Equal(HttpStatusCode.OK, stats.StatusCode);
    }

    /// <summary>A 505 is Kestrel's answer to a request line whose version is neither HTTP/1.0 nor HTTP/1.1 (RFC 9110
    /// §15.6.6): it names the client's mistake before any Ingest code runs, so it is allowed for such requests only.</summary>
    private static bool SpeaksHttp11(byte[] wire)
    {
        // The request line ends at the first LF, as Kestrel reads it: a mutated bare LF splits it (found by a long run).
        var end = wire.AsSpan().IndexOf((byte)'\n');
        var line = (end < 0 ? wire : wire.AsSpan(0, end)).TrimEnd((byte)'\r');
        return line.EndsWith(" HTTP/1.1"u8) || line.EndsWith(" HTTP/1.0"u8);
    }

    private static int Setting(string name, int fallback) =>
        int.TryParse(Environment.GetEnvironmentVariable(name), CultureInfo.InvariantCulture, out var value) ? value : fallback;

    // The request as C#-like text, short enough to read in a test log.
    private static string Printable(byte[] wire)
    {
        var text = new StringBuilder();
        foreach (var b in wire.AsSpan(0, Math.Min(wire.Length, 1500)))
        {
            text.Append(b switch
            {
                (byte)'\r' => "\\r",
                (byte)'\n' => "\\n\n",
                >= 0x20 and < 0x7F => ((char)b).ToString(),
                _ => $"\\x{b:X2}",
            });
        }

        return wire.Length > 1500 ? text.Append($"... ({wire.Length} bytes)").ToString() : text.ToString();
    }
}
