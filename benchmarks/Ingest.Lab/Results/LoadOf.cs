namespace Ingest.Lab.Results;

/// <summary>What a result's load was, read back from its configuration (<c>"POST /ingest/event Classic c=50"</c>): the
/// one place tables, verdicts and the report take a scenario's connection count from.</summary>
internal static class LoadOf
{
    /// <summary>The load's connection count; 0 when it has none.</summary>
    public static int Connections(ScenarioResult result)
    {
        var load = result.Configuration.GetValueOrDefault("load") ?? "";
        var at = load.IndexOf("c=", StringComparison.Ordinal);
        if (at < 0)
        {
            return 0;
        }

        var digits = new string([.. load[(at + 2)..].TakeWhile(char.IsAsciiDigit)]);
        return int.TryParse(digits, System.Globalization.CultureInfo.InvariantCulture, out var c) ? c : 0;
    }
}
