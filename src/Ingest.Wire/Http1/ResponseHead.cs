namespace Ingest.Wire.Http1;

/// <summary>
/// What the callers read of a final response's head: its status, how its body is framed, whether the connection stays
/// open after it, and a Retry-After in seconds.
/// </summary>
/// <param name="StatusCode">A final status, 200 to 599 (RFC 9110 §15): interim 1xx answers are skipped.</param>
/// <param name="Framing">How the body ends.</param>
/// <param name="ContentLength">The Content-Length as sent, or -1 without one (an answer to HEAD keeps the length of the
/// body it does not carry).</param>
/// <param name="KeepAlive">False when the server closes the connection after this response: Connection: close,
/// HTTP/1.0 without keep-alive, or a body that ends with the connection.</param>
/// <param name="RetryAfterSeconds">A Retry-After in delay-seconds; 0 without one, or for an HTTP-date.</param>
public readonly record struct ResponseHead(int StatusCode, BodyFraming Framing, long ContentLength, bool KeepAlive, int RetryAfterSeconds);
