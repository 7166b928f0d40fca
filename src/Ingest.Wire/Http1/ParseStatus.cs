namespace Ingest.Wire.Http1;

/// <summary>What <see cref="HttpResponseParser.Parse"/> found in the bytes it was given.</summary>
public enum ParseStatus
{
    /// <summary>Every byte given was consumed, or must be given again with more after it: read more.</summary>
    NeedMore,

    /// <summary>A final response's status line and headers ended (<see cref="HttpResponseParser.Head"/>); its body, if
    /// any, follows. Interim (1xx) responses are skipped and never reported.</summary>
    Head,

    /// <summary>The response whose head was reported ended; bytes after it belong to the next one.</summary>
    Complete,

    /// <summary>The bytes are not an HTTP/1.1 response this parser can frame with certainty
    /// (<see cref="HttpResponseParser.Error"/> says why); the connection cannot be used any more.</summary>
    Error,
}
