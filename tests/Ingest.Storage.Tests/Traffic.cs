using System.Collections.Concurrent;
using System.Net;
using Ingest.Core.Samples;
using Ingest.Testing;

namespace Ingest.Storage.Tests;

/// <summary>Load for the store tests: concurrent posts of small mixed batches through the front-end, with every
/// answer recorded, so a test can compare what was acknowledged with what the store holds.</summary>
internal sealed class Traffic
{
    public const int EventsPerRequest = 5;

    /// <summary>Two jobs, two metrics and a log (<see cref="SamplePayloads.MixedCounts"/>).</summary>
    private static readonly string Body = SamplePayloads.JsonArray(EventsPerRequest);

    private readonly HttpClient _client;
    private readonly ConcurrentDictionary<HttpStatusCode, int> _answers = new();
    private readonly ConcurrentBag<string> _unexpected = [];
    private long _acknowledged;
    private long _sent;
    private long _retryAfterMissing;

    public Traffic(HttpClient client)
    {
        _client = client;
    }

    /// <summary>Events of each type in one request.</summary>
    public static (int Job, int Metric, int Log) PerRequest => SamplePayloads.MixedCounts(EventsPerRequest);

    /// <summary>Requests answered 200.</summary>
    public long AcknowledgedRequests => Interlocked.Read(ref _acknowledged);

    /// <summary>Events in requests answered 200.</summary>
    public long AcknowledgedEvents => Interlocked.Read(ref _acknowledged) * EventsPerRequest;

    public long SentEvents => Interlocked.Read(ref _sent) * EventsPerRequest;

    public int Answered(HttpStatusCode status) => _answers.GetValueOrDefault(status);

    /// <summary>503 answers without a Retry-After header.</summary>
    public long RetryAfterMissing => Interlocked.Read(ref _retryAfterMissing);

    /// <summary>Answers other than 200 and 503, with their bodies.</summary>
    public IReadOnlyCollection<string> Unexpected => _unexpected;

    /// <summary>Sends <paramref name="requests"/> requests over <paramref name="connections"/> connections.</summary>
    public Task SendAsync(int requests, int connections = 8)
    {
        var next = -1;
        return Task.WhenAll(Enumerable.Range(0, connections).Select(_ => Task.Run(async () =>
        {
            while (Interlocked.Increment(ref next) < requests)
            {
                await SendOneAsync();
            }
        })));
    }

    /// <summary>Sends until <paramref name="done"/> says so (checked after every answer), or fails after a deadline.</summary>
    public async Task SendUntilAsync(Func<bool> done, int connections = 4, int timeoutSeconds = 60)
    {
        using var deadline = new CancellationTokenSource(TimeSpan.FromSeconds(timeoutSeconds));
        await Task.WhenAll(Enumerable.Range(0, connections).Select(_ => Task.Run(async () =>
        {
            while (!done() && !deadline.IsCancellationRequested)
            {
                if (await SendOneAsync() == HttpStatusCode.ServiceUnavailable)
                {
                    // As a well-behaved client would, if not for the whole Retry-After: the test wants the outage's end soon.
                    await Task.Delay(20);
                }
            }
        })));
        Assert.True(done(), $"The condition was not met within {timeoutSeconds} s; answers so far: {string.Join(", ", _answers.Select(a => $"{(int)a.Key}: {a.Value}"))}");
    }

    private async Task<HttpStatusCode> SendOneAsync()
    {
        Interlocked.Increment(ref _sent);
        using var response = await _client.PostEventAsync(Body);
        _answers.AddOrUpdate(response.StatusCode, 1, static (_, n) => n + 1);
        switch (response.StatusCode)
        {
            case HttpStatusCode.OK:
                Interlocked.Increment(ref _acknowledged);
                break;
            case HttpStatusCode.ServiceUnavailable:
                if (response.Headers.RetryAfter is null)
                {
                    Interlocked.Increment(ref _retryAfterMissing);
                }

                break;
            default:
                _unexpected.Add($"{(int)response.StatusCode} {await response.Content.ReadAsStringAsync()}");
                break;
        }

        return response.StatusCode;
    }
}
