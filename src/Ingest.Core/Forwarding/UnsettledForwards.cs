using Polly.CircuitBreaker;

namespace Ingest.Core.Forwarding;

/// <summary>
/// A forward whose attempts all failed answers its caller 502 or 503 — "nothing of the request was persisted"
/// (docs/contract.md) — only if no attempt may have reached the back-end. An attempt that failed after its request
/// could have been read (a connection reset or closed before the whole answer, an answer that could not be read, an
/// attempt's deadline) leaves the forward unsettled: the back-end may have persisted it and lost only its answer. Such
/// a forward ends as <see cref="ForwardOutcomeUnknownException"/> (504, outcome unknown) whatever its last attempt got,
/// so a caller never retries — under a new key — events already persisted.
/// </summary>
public static class UnsettledForwards
{
    /// <summary>Set on a forward's request message (HttpClient's strategies) when one of its attempts may have landed.</summary>
    public static readonly HttpRequestOptionsKey<bool> RequestOption = new("Ingest.UnsettledForward");

    /// <summary>Whether an attempt that failed with <paramref name="error"/> may have been read by the back-end: all but a
    /// refused or unresolvable connection and an open circuit, which never sent anything.</summary>
    public static bool MayHaveLanded(Exception error) =>
        error is not (BrokenCircuitException or HttpRequestException { HttpRequestError: HttpRequestError.ConnectionError or HttpRequestError.NameResolutionError });

    /// <summary>What a sender throws for a forward that failed after <paramref name="error"/> or a non-2xx
    /// <paramref name="status"/>, when an attempt of it may have landed.</summary>
    public static ForwardOutcomeUnknownException Unknown(Exception? error, int status = 0) => new(
        error is null
            ? $"its last attempt was answered {status}, but an earlier one may have been persisted before its answer was lost"
            : $"an attempt may have been persisted before its answer was lost ({error.GetType().Name}: {error.Message})",
        error);
}

/// <summary>A forward that failed with its outcome unknown: a back-end may have persisted it (see <see cref="UnsettledForwards"/>).</summary>
public sealed class ForwardOutcomeUnknownException(string why, Exception? inner) : Exception(why, inner);
