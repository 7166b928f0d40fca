using Microsoft.Extensions.Http.Resilience;
using Polly;
using Polly.Timeout;

namespace Ingest.Core.Forwarding;

/// <summary>
/// Sends one forward's body to one back-end and returns its answer, the forward's resilience included (deadlines,
/// retries with the same Idempotency-Key, the shared breaker). Failures are thrown as the forwarder maps them:
/// <see cref="TimeoutRejectedException"/> (504), <see cref="Polly.CircuitBreaker.BrokenCircuitException"/> (503),
/// <see cref="HttpRequestException"/> (502). HttpClient's strategies implement it over an
/// <see cref="IBackEndClientSource"/>; <see cref="ClientStrategy.LoopDirect"/> with its own HTTP/1.1 client.
/// </summary>
public interface IBackEndSender
{
    /// <summary>Sends <paramref name="payload"/> (the forward's events, written as JSON where the sender needs the
    /// bytes) to back-end <paramref name="target"/>, its index in <see cref="BackEndResilience.Targets"/>, with the
    /// payload's Idempotency-Key on every attempt.</summary>
    ValueTask<BackEndReply> SendAsync(int target, ForwardPayload payload, CancellationToken cancellationToken);
}

/// <summary>What the forwarder reads of a back-end's answer: its status, and a 503's Retry-After in seconds (0 when
/// it gave none, or gave a date).</summary>
public readonly record struct BackEndReply(int Status, int RetryAfterSeconds = 0)
{
    public bool IsSuccess => Status is >= 200 and <= 299;

    /// <summary>The transient failures of Microsoft.Extensions.Http.Resilience, for an answer that is not an
    /// HttpResponseMessage: its own exception predicate (connection errors, attempt timeouts), and the statuses its
    /// response predicate takes as transient (408, 429, 5xx).</summary>
    public static bool IsTransient(Outcome<BackEndReply> outcome) => outcome.Exception is { } exception
        ? HttpClientResiliencePredicates.IsTransient(Outcome.FromException<HttpResponseMessage>(exception))
        : outcome.Result.Status is 408 or 429 or >= 500;
}
