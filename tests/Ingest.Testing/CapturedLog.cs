using Microsoft.Extensions.Logging;

namespace Ingest.Testing;

/// <summary>One log entry a service wrote: its level, category and formatted message (with the exception's type, if any).</summary>
public sealed record CapturedLog(LogLevel Level, string Category, string Message, Exception? Exception)
{
    public override string ToString() => $"{Level} {Category}: {Message}{(Exception is null ? "" : $" ({Exception.GetType().Name}: {Exception.Message})")}";
}
