using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;

namespace Ingest.Testing;

/// <summary>Keeps every log entry, to assert on what a service reports (and on what it must never report, such as
/// an error for a request the client got wrong).</summary>
public sealed class CapturingLoggerProvider : ILoggerProvider
{
    public ConcurrentQueue<CapturedLog> Entries { get; } = new();

    /// <summary>The formatted messages, in the order they were logged.</summary>
    public IEnumerable<string> Messages => Entries.Select(static entry => entry.Message);

    /// <summary>Entries at <see cref="LogLevel.Error"/> or above.</summary>
    public IEnumerable<CapturedLog> Errors => Entries.Where(static entry => entry.Level >= LogLevel.Error);

    public ILogger CreateLogger(string categoryName) => new Logger(categoryName, Entries);

    public void Dispose()
    {
    }

    private sealed class Logger(string category, ConcurrentQueue<CapturedLog> entries) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
            entries.Enqueue(new CapturedLog(logLevel, category, formatter(state, exception), exception));
    }
}
