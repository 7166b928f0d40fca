using Ingest.Core.Problems;

namespace Ingest.Core.Serialization;

/// <summary>
/// Thrown by an <see cref="IIngestSerializer"/> when a document is not well-formed JSON or a member has
/// the wrong JSON type. Serializers translate their own exceptions into this one so callers see one
/// shape whatever the serializer.
/// </summary>
public sealed class IngestFormatException : Exception
{
    public IngestFormatException()
    {
    }

    public IngestFormatException(string message)
        : base(message)
    {
    }

    public IngestFormatException(string message, Exception innerException)
        : base(message, innerException)
    {
    }

    public IngestFormatException(ProblemKind kind, string message, string path, Exception? innerException = null)
        : base(message, innerException)
    {
        Kind = kind;
        Path = path;
    }

    /// <summary><see cref="ProblemKind.MalformedJson"/> or <see cref="ProblemKind.InvalidField"/>.</summary>
    public ProblemKind Kind { get; } = ProblemKind.MalformedJson;

    /// <summary>JSON path relative to the document that was read, starting with <c>$</c>.</summary>
    public string Path { get; } = "$";
}
