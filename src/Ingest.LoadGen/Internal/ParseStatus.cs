namespace Ingest.LoadGen.Internal;

/// <summary>What <see cref="HttpResponseParser.Parse"/> found in the bytes it was given.</summary>
internal enum ParseStatus
{
    /// <summary>Every byte given was consumed (or must be kept): read more.</summary>
    NeedMore,

    /// <summary>A whole response ended; bytes after it belong to the next one.</summary>
    Complete,

    /// <summary>The bytes are not an HTTP/1.1 response; the connection cannot be used any more.</summary>
    Error,
}
