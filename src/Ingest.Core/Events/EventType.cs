using System.Runtime.Serialization;
using System.Text.Json.Serialization;

namespace Ingest.Core.Events;

/// <summary>The kinds of event Ingest accepts. On the wire they are lower-case strings.</summary>
/// <remarks>Both attribute sets are needed: System.Text.Json reads <see cref="JsonStringEnumMemberNameAttribute"/>,
/// Newtonsoft.Json reads <see cref="EnumMemberAttribute"/>.</remarks>
public enum EventType
{
    [JsonStringEnumMemberName("job")]
    [EnumMember(Value = "job")]
    Job,

    [JsonStringEnumMemberName("metric")]
    [EnumMember(Value = "metric")]
    Metric,

    [JsonStringEnumMemberName("log")]
    [EnumMember(Value = "log")]
    Log,
}
