namespace Ingest.LoadGen.Internal;

/// <summary>Why a connection's in-flight requests failed (each maps to a member of <see cref="ErrorCounts"/>).</summary>
internal enum FailureKind
{
    Timeout,
    Read,
    Write,
    Parse,
}
