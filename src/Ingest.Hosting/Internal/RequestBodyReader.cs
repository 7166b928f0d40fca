using System.Buffers;
using System.IO.Pipelines;
using Ingest.Core.Events;
using Ingest.Core.Problems;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;

namespace Ingest.Hosting.Internal;

/// <summary>
/// Reads a whole request body from the body pipe into one pooled array, enforcing the size limit as it goes,
/// so a client cannot make the service buffer more than <c>Ingest:MaxBodyBytes</c>. Every API style reads
/// bodies here (MVC through <c>IngestInputFormatter</c>), so this is the one place where a body the client
/// framed wrongly becomes a 4xx problem instead of an exception that Kestrel would answer with a 500.
/// </summary>
internal static partial class RequestBodyReader
{
    // Enough for the classic payload and small batches without growing; Content-Length sizes it exactly otherwise.
    private const int InitialSize = 4096;

    /// <summary>Reads the body and hands it to <paramref name="parse"/>, which fills the event list or names the
    /// problem; the pooled buffer is returned before the events travel on (they own their strings).</summary>
    public static async ValueTask<ParsedRequest> ReadEventsAsync<TState>(
        HttpRequest request,
        int maxBytes,
        TState state,
        Func<TState, ReadOnlyMemory<byte>, List<IngestEvent>, IngestProblem?> parse,
        ILogger logger,
        CancellationToken cancellationToken)
    {
        var (body, problem) = await ReadAsync(request, maxBytes, logger, cancellationToken);
        if (problem is not null)
        {
            return ParsedRequest.Rejected(problem);
        }

        // The request's events, held while they are forwarded or persisted: one list per request, deliberately.
        var events = new List<IngestEvent>();
        try
        {
            problem = parse(state, body.Memory, events);
        }
        finally
        {
            body.Return();
        }

        return problem is null ? ParsedRequest.Accepted(events) : ParsedRequest.Rejected(problem);
    }

    /// <summary>
    /// Reads the body, or names the problem with it. Whatever the client can get wrong is a problem, never an
    /// exception: an OperationCanceledException (the client left, or shutdown aborted the request) is the only
    /// failure of the read that escapes, and Kestrel logs that at debug level as an aborted request.
    /// </summary>
    public static async ValueTask<(PooledBody Body, IngestProblem? Problem)> ReadAsync(HttpRequest request, int maxBytes, ILogger logger, CancellationToken cancellationToken)
    {
        if (request.ContentLength > maxBytes)
        {
            return (default, TooLarge(maxBytes));
        }

        var array = ArrayPool<byte>.Shared.Rent((int)(request.ContentLength ?? InitialSize));
        var length = 0;
        var reader = request.BodyReader;
        try
        {
            while (true)
            {
                ReadResult result;
                try
                {
                    result = await reader.ReadAsync(cancellationToken);
                }
                catch (Exception ex) when (ex is IOException or (InvalidOperationException and not ObjectDisposedException))
                {
                    ArrayPool<byte>.Shared.Return(array);
                    return (default, Unreadable(request.HttpContext, ex, maxBytes, logger));
                }

                var buffer = result.Buffer;
                if (length + buffer.Length > maxBytes)
                {
                    reader.AdvanceTo(buffer.End);
                    ArrayPool<byte>.Shared.Return(array);
                    return (default, TooLarge(maxBytes));
                }

                if (length + buffer.Length > array.Length)
                {
                    var bigger = ArrayPool<byte>.Shared.Rent((int)Math.Max(array.Length * 2L, length + buffer.Length));
                    array.AsSpan(0, length).CopyTo(bigger);
                    ArrayPool<byte>.Shared.Return(array);
                    array = bigger;
                }

                buffer.CopyTo(array.AsSpan(length));
                length += (int)buffer.Length;
                reader.AdvanceTo(buffer.End);
                if (result.IsCompleted)
                {
                    return (new PooledBody(array, length), null);
                }
            }
        }
        catch
        {
            ArrayPool<byte>.Shared.Return(array);
            throw;
        }
    }

    /// <summary>
    /// The answer to a body read that failed on what came over the connection. Kestrel's verdicts on the framing are
    /// answered, and the connection closed after the answer: BadHttpRequestException (truncated content, a bad chunk
    /// size, CRLF or trailer, its size limit, a slow upload) and the plain IOException it throws, wrapping an
    /// OverflowException, for a chunk size beyond an int. Anything else leaves nothing to answer: a reset or another
    /// IOException of the transport (the connection is gone), or the InvalidOperationException Kestrel throws for a
    /// NUL in a trailer (its reader is unusable). Then the connection is aborted, as Kestrel closes one whose body
    /// ends early: Kestrel would otherwise try to drain the body after the app and log an error when its reader
    /// refuses ("Reading is already in progress" after a reset mid Content-Length body).
    /// </summary>
    private static IngestProblem Unreadable(HttpContext context, Exception ex, int maxBytes, ILogger logger)
    {
        LogUnreadable(logger, ex);
        if (ex is not (BadHttpRequestException or IOException { InnerException: OverflowException }))
        {
            context.Abort();
            return IngestProblem.Create(ProblemKind.MalformedJson, $"The request body could not be read: {ex.Message}");
        }

        context.Response.Headers.Connection = "close";
        return ex switch
        {
            BadHttpRequestException { StatusCode: StatusCodes.Status413PayloadTooLarge } => TooLarge(maxBytes),
            BadHttpRequestException { StatusCode: StatusCodes.Status408RequestTimeout } =>
                IngestProblem.Create(ProblemKind.RequestTimeout, $"The body arrived too slowly: {ex.Message}"),
            _ => IngestProblem.Create(ProblemKind.MalformedJson, $"The request body could not be read: {ex.Message}"),
        };
    }

    // Debug, as Kestrel logs the bad requests it answers itself and the connections that end mid-request.
    [LoggerMessage(EventId = 10, Level = LogLevel.Debug, Message = "The request body could not be read; the connection will be closed.")]
    private static partial void LogUnreadable(ILogger logger, Exception exception);

    private static IngestProblem TooLarge(int maxBytes) =>
        IngestProblem.Create(ProblemKind.PayloadTooLarge, $"The body is larger than {maxBytes} bytes.");
}
