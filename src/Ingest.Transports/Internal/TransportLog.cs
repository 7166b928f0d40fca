using System.Net;
using Microsoft.Extensions.Logging;

namespace Ingest.Transports.Internal;

/// <summary>The transports' log messages (source-generated, stable event ids).</summary>
internal static partial class TransportLog
{
    [LoggerMessage(EventId = 1, Level = LogLevel.Information, Message = "Kestrel transport: {Transport}.")]
    public static partial void TransportSelected(ILogger logger, string transport);

    [LoggerMessage(EventId = 2, Level = LogLevel.Warning, Message = "Kestrel:Transport={Requested} cannot run here: {Reason} Kestrel:TransportFallback is true, so Kestrel uses Sockets instead.")]
    public static partial void FallingBack(ILogger logger, TransportKind requested, string reason);

    [LoggerMessage(EventId = 3, Level = LogLevel.Debug, Message = "{Transport} listening on {EndPoint} with {ThreadCount} transport threads.")]
    public static partial void Listening(ILogger logger, TransportKind transport, EndPoint endPoint, int threadCount);

    [LoggerMessage(EventId = 4, Level = LogLevel.Error, Message = "Transport thread '{Loop}' failed; its connections were closed.")]
    public static partial void LoopFailed(ILogger logger, string loop, Exception error);

    [LoggerMessage(EventId = 5, Level = LogLevel.Error, Message = "Work scheduled on transport thread '{Loop}' threw.")]
    public static partial void ScheduledWorkFailed(ILogger logger, string loop, Exception error);

    [LoggerMessage(EventId = 6, Level = LogLevel.Warning, Message = "Accepting a connection on {EndPoint} failed: {Error}.")]
    public static partial void AcceptFailed(ILogger logger, EndPoint endPoint, string error);
}
