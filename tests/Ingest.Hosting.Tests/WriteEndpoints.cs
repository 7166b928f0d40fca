using Ingest.Core.Samples;
using Ingest.Testing;
using Ingest.Transports;

namespace Ingest.Hosting.Tests;

/// <summary>Each service's write endpoint with a body it accepts, for the suites that send it faulty requests over raw
/// sockets on every transport, in every API style.</summary>
internal static class WriteEndpoints
{
    /// <summary>A normalised event, as a front-end forwards it.</summary>
    public const string Forward =
        """[{"type":"job","source":"s","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:00Z","job_id":"j","status":"s"}]""";

    public static TheoryData<TransportKind, ApiStyle, ServiceRole> TransportsStylesAndServices() => EnumMatrix.Every<TransportKind, ApiStyle, ServiceRole>();

    /// <summary>Where <paramref name="role"/>'s write endpoint of <paramref name="flow"/> is, and a body it accepts.</summary>
    public static (Uri Server, string Path, string Valid) Of(Flow flow, ServiceRole role) => role == ServiceRole.FrontEnd
        ? (flow.FrontEnd.BaseAddress, "/ingest/event", SamplePayloads.Classic)
        : (flow.BackEnd.BaseAddress, "/ingest/data", Forward);
}
