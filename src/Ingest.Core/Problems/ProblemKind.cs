namespace Ingest.Core.Problems;

/// <summary>Every error Ingest answers with; <see cref="IngestProblem"/> maps each to its status and title.
/// The list is the contract's error table (docs/contract.md).</summary>
public enum ProblemKind
{
    EmptyBody,
    MalformedJson,
    InvalidField,
    MissingField,
    UnknownType,
    PayloadTooLarge,
    RequestTimeout,
    UnsupportedMediaType,
    Overloaded,
    StoreUnavailable,
    Unauthorized,
    TooManyRequests,
    BackEndFailed,
    BackEndTimeout,
    NotFound,
    MethodNotAllowed,
    MalformedRequest,
}
