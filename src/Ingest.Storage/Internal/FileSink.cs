using System.Buffers;
using System.Text.Json;
using Ingest.Core.Buffers;
using Ingest.Core.Diagnostics;
using Ingest.Core.Events;
using Ingest.Core.Sinks;
using Microsoft.Extensions.Logging;

namespace Ingest.Storage.Internal;

/// <summary>
/// Appends events as NDJSON to a file per type, one writer so lines never interleave. A batch's lines are
/// serialized into one buffer per type and written with one call per file, then fsynced as the
/// <see cref="FileFlushPolicy"/> says, before the batch is acknowledged.
/// </summary>
internal sealed class FileSink : BatchingSink, IStoreInitializer
{
    private static readonly string[] TypeNames = ["job", "metric", "log"];
    private static readonly byte[] NewLine = "\n"u8.ToArray();

    private readonly FileSinkOptions _options;
    private readonly string _directory;
    private readonly NdjsonFile[] _files;
    private readonly PooledBufferWriter[] _lines;
    private readonly Utf8JsonWriter[] _json;
    private readonly SemaphoreSlim _gate = new(1, 1);
    private readonly CancellationTokenSource _stopping = new();
    private Task? _flusher;

    public FileSink(FileSinkOptions options, IngestMetrics? metrics, ILoggerFactory loggers)
        : base(SinkKind.File, options, writers: 1, metrics, loggers.CreateLogger<FileSink>())
    {
        _options = options;
        _directory = Path.GetFullPath(options.Directory!);
        _files = [.. TypeNames.Select(t => new NdjsonFile(_directory, t, options.RotateBytes))];
        _lines = [.. TypeNames.Select(_ => new PooledBufferWriter(64 * 1024))];
        _json = [.. _lines.Select(lines => new Utf8JsonWriter(lines))];
        Store = $"the files in {_directory}";
    }

    protected override string Store { get; }

    public async Task InitializeAsync(CancellationToken cancellationToken)
    {
        try
        {
            Directory.CreateDirectory(_directory);
            foreach (var file in _files)
            {
                file.Open();
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            throw new InvalidOperationException($"{FileSinkOptions.SectionName}:Directory: cannot write to '{_directory}': {ex.Message}", ex);
        }

        if (_options.Flush == FileFlushPolicy.Interval)
        {
            _flusher = FlushPeriodicallyAsync();
        }

        await Task.CompletedTask;
    }

    protected override async Task WriteBatchAsync(List<IngestEvent> events, int writer, CancellationToken cancellationToken)
    {
        foreach (var lines in _lines)
        {
            lines.Reset();
        }

        foreach (var e in events)
        {
            // One reused writer per type; reset per line, since a JSON writer takes one root value.
            var json = _json[(int)e.Type!.Value];
            json.Reset();
            EventJson.Write(json, e);
            json.Flush();
            _lines[(int)e.Type].Write(NewLine);
        }

        await _gate.WaitAsync(cancellationToken);
        try
        {
            for (var i = 0; i < _files.Length; i++)
            {
                if (_lines[i].WrittenCount > 0)
                {
                    _files[i].Append(_lines[i].WrittenSpan);
                    if (_options.Flush == FileFlushPolicy.PerBatch)
                    {
                        _files[i].FlushToDisk();
                    }
                }
            }
        }
        finally
        {
            _gate.Release();
        }
    }

    protected override async ValueTask DisposeStoreAsync()
    {
        await _stopping.CancelAsync();
        if (_flusher is not null)
        {
            await _flusher;
        }

        foreach (var file in _files)
        {
            file.Dispose();
        }

        foreach (var json in _json)
        {
            await json.DisposeAsync();
        }

        foreach (var lines in _lines)
        {
            lines.Dispose();
        }

        _gate.Dispose();
        _stopping.Dispose();
    }

    private async Task FlushPeriodicallyAsync()
    {
        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(_options.FlushIntervalMilliseconds));
        try
        {
            while (await timer.WaitForNextTickAsync(_stopping.Token))
            {
                await _gate.WaitAsync(_stopping.Token);
                try
                {
                    foreach (var file in _files)
                    {
                        file.FlushToDisk();
                    }
                }
                catch (IOException)
                {
                    // The next batch's write meets the same disk and answers 503; nothing to add here.
                }
                finally
                {
                    _gate.Release();
                }
            }
        }
        catch (OperationCanceledException)
        {
        }
    }
}
