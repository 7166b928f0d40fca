using Ingest.Core.Samples;
using Ingest.Lab.Catalogue;

namespace Ingest.Lab.Running;

/// <summary>Writes a scenario's request body to a file, byte for byte from <see cref="SamplePayloads"/>.</summary>
internal static class PayloadFiles
{
    public static string Write(string folder, PayloadKind payload)
    {
        var path = Path.Combine(folder, payload == PayloadKind.Batch100Ndjson ? "payload.ndjson" : "payload.json");
        var text = payload switch
        {
            PayloadKind.Classic => SamplePayloads.Classic,
            PayloadKind.Batch100 => SamplePayloads.JsonArray(100),
            PayloadKind.Batch100Ndjson => SamplePayloads.Ndjson(100),
            _ => "",
        };
        File.WriteAllText(path, text);
        return path;
    }
}
