using System.Globalization;
using Ingest.Core.Forwarding;
using Ingest.Core.Serialization;
using Ingest.Hosting;

namespace Ingest.Testing;

/// <summary>One point of the configuration matrix, as the settings each service gets.</summary>
public sealed record FlowConfiguration(
    SerializerKind Serializer = SerializerKind.SystemTextJsonSourceGen,
    ClientStrategy Strategy = ClientStrategy.Static,
    ApiStyle Style = ApiStyle.Minimal,
    ForwardingMode Mode = ForwardingMode.PerEvent,
    string Transport = "Sockets")
{
    public Dictionary<string, string?> BackEnd(Dictionary<string, string?>? extra = null) => Merge(new()
    {
        ["Ingest:Serializer"] = Serializer.ToString(),
        ["Ingest:ApiStyle"] = Style.ToString(),
        ["Kestrel:Transport"] = Transport,
        ["Sinks:Default"] = "Memory",
    }, extra);

    public Dictionary<string, string?> FrontEnd(IEnumerable<Uri> backEnds, Dictionary<string, string?>? extra = null)
    {
        var settings = new Dictionary<string, string?>
        {
            ["Ingest:Serializer"] = Serializer.ToString(),
            ["Ingest:ApiStyle"] = Style.ToString(),
            ["Kestrel:Transport"] = Transport,
            ["Forwarding:ClientStrategy"] = Strategy.ToString(),
            ["Forwarding:Mode"] = Mode.ToString(),
        };
        var i = 0;
        foreach (var backEnd in backEnds)
        {
            settings[$"Forwarding:BackEnds:{i++.ToString(CultureInfo.InvariantCulture)}"] = backEnd.ToString();
        }

        return Merge(settings, extra);
    }

    private static Dictionary<string, string?> Merge(Dictionary<string, string?> settings, Dictionary<string, string?>? extra)
    {
        foreach (var (key, value) in extra ?? [])
        {
            settings[key] = value;
        }

        return settings;
    }
}
