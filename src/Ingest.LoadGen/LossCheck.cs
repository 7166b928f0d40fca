using System.Text.Json;

namespace Ingest.LoadGen;

/// <summary>
/// The comparison after a load: events the back-end persisted against events in requests the load generator
/// saw acknowledged. Requests whose outcome the client could not know (in flight at the end, timed out, reset)
/// may or may not have been persisted; they widen the allowed range and are reported. The lab runs it after
/// every scenario, the generator's <c>--loss-check</c> after its own run (a Crank job has no later step).
/// </summary>
public sealed record LossCheck(long Acknowledged, long Unknown, long Persisted)
{
    /// <summary>A 504 means the front-end stopped waiting for a back-end that may still persist the events
    /// (docs/contract.md): an outcome the client cannot know.</summary>
    private const int StatusGatewayTimeout = 504;

    /// <summary>How often the back-end's total is read while it still moves (forwards may still be landing).</summary>
    private static readonly TimeSpan SettleInterval = TimeSpan.FromMilliseconds(300);

    /// <summary>How long the total may keep moving before the last reading is taken as it is.</summary>
    private static readonly TimeSpan SettleDeadline = TimeSpan.FromSeconds(15);

    /// <summary>Every acknowledged event is persisted, and nothing beyond what may have arrived unacknowledged.</summary>
    public bool Passed => Persisted >= Acknowledged && Persisted <= Acknowledged + Unknown;

    /// <summary>Events acknowledged but not persisted; 0 when nothing was lost.</summary>
    public long Lost => Math.Max(0, Acknowledged - Persisted);

    public string Describe() => Passed
        ? $"{Persisted} persisted for {Acknowledged} acknowledged{(Unknown > 0 ? $" (+ up to {Unknown} of unknown outcome)" : "")}: nothing lost"
        : Persisted < Acknowledged
            ? $"LOST {Acknowledged - Persisted} events: {Acknowledged} acknowledged, only {Persisted} persisted"
            : $"{Persisted - Acknowledged - Unknown} events persisted that no request accounts for: {Persisted} persisted, {Acknowledged} acknowledged, {Unknown} unknown";

    /// <summary>Measured requests of a run whose outcome the client could not know: the server may have processed
    /// them without the client seeing the answer.</summary>
    public static long UnknownOutcomes(LoadResult result) =>
        result.InFlightAtEnd + result.Errors.Timeout + result.Errors.Read + result.Errors.Write
        + result.Errors.NonSuccessStatusCodes.GetValueOrDefault(StatusGatewayTimeout);

    /// <summary>The check of one whole run of the generator, warm-up included (its requests reach the back-end
    /// too). Warm-up answers other than 2xx are not told apart, so they count as of unknown outcome: that only
    /// widens the upper bound, never hides a loss.</summary>
    public static LossCheck Of(LoadResult result, int eventsPerRequest, long persisted) => new(
        (result.WarmupSuccessfulResponses + result.SuccessfulResponses) * eventsPerRequest,
        (result.WarmupRequests - result.WarmupSuccessfulResponses + UnknownOutcomes(result)) * eventsPerRequest,
        persisted);

    /// <summary>The back-end's persisted total (<c>GET ingest/stats</c> below its base URL, its <c>total</c>), read until it stops
    /// moving or <see cref="SettleDeadline"/> passes.</summary>
    public static async Task<long> ReadPersistedAsync(Uri backEnd, CancellationToken cancellationToken = default)
    {
        using var client = new HttpClient { BaseAddress = backEnd, Timeout = TimeSpan.FromSeconds(5) };
        var deadline = DateTime.UtcNow + SettleDeadline;
        long previous = -1;
        while (true)
        {
            using var stats = JsonDocument.Parse(await client.GetStringAsync("ingest/stats", cancellationToken));
            var total = stats.RootElement.GetProperty("total").GetInt64();
            if (total == previous || DateTime.UtcNow > deadline)
            {
                return total;
            }

            previous = total;
            await Task.Delay(SettleInterval, cancellationToken);
        }
    }
}
