namespace Ingest.Lab.Catalogue;

/// <summary>A Kestrel transport as the lab runs it: the settings that select and tune it, and its environment.</summary>
internal sealed class TransportVariant(string name, (string Key, string Value)[] settings, (string Key, string Value)[]? environment = null)
{
    public string Name { get; } = name;

    public (string Key, string Value)[] Settings { get; } = settings;

    public IReadOnlyDictionary<string, string> Environment { get; } = (environment ?? []).ToDictionary(e => e.Key, e => e.Value);
}
