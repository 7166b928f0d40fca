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
    string Transport = "Sockets",
    string? BackEndTransport = null,
    bool? ApplicationInline = null)
{
    /// <summary>Whether the Ingest transports run the application on their loop: as asked, else only for
    /// <see cref="ClientStrategy.LoopDirect"/>, whose point is a request that never leaves its loop.</summary>
    public bool Inline => ApplicationInline ?? Strategy.NeedsLoops();

    /// <summary>The transport both services run: the one asked for, except that the loop strategy needs loops that can
    /// own its connections, so its rows run LinuxEpoll with the application inline on the loop — the
    /// run-to-completion configuration the strategy exists for.</summary>
    public string EffectiveTransport => Strategy.NeedsLoops() && Transport == "Sockets" ? "LinuxEpoll" : Transport;

    private Dictionary<string, string?> TransportSettings(string transport) => Inline && transport != "Sockets"
        ? new()
        {
            ["Kestrel:Transport"] = transport,
            [$"Kestrel:{transport}:ApplicationSchedulingMode"] = "Inline",
        }
        : new() { ["Kestrel:Transport"] = transport };

    public Dictionary<string, string?> BackEnd(Dictionary<string, string?>? extra = null) => Merge(Merge(new()
    {
        ["Ingest:Serializer"] = Serializer.ToString(),
        ["Ingest:ApiStyle"] = Style.ToString(),
        ["Sinks:Default"] = "Memory",
    }, TransportSettings(BackEndTransport ?? EffectiveTransport)), extra);

    public Dictionary<string, string?> FrontEnd(IEnumerable<Uri> backEnds, Dictionary<string, string?>? extra = null)
    {
        var settings = new Dictionary<string, string?>
        {
            ["Ingest:Serializer"] = Serializer.ToString(),
            ["Ingest:ApiStyle"] = Style.ToString(),
            ["Forwarding:ClientStrategy"] = Strategy.ToString(),
            ["Forwarding:Mode"] = Mode.ToString(),
        };
        var i = 0;
        foreach (var backEnd in backEnds)
        {
            settings[$"Forwarding:BackEnds:{i++.ToString(CultureInfo.InvariantCulture)}"] = backEnd.ToString();
        }

        return Merge(Merge(settings, TransportSettings(EffectiveTransport)), extra);
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
