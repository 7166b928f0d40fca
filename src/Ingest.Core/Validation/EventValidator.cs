using Ingest.Core.Events;
using Ingest.Core.Problems;
using Ingest.Core.Serialization;

namespace Ingest.Core.Validation;

/// <summary>
/// Validates an incoming <see cref="EventDocument"/> against the contract (docs/contract.md) and
/// normalises it into an <see cref="IngestEvent"/>; also re-checks normalised events on the back-end.
/// Returns a problem instead of throwing: invalid input is an expected outcome here, not an exception.
/// </summary>
public static class EventValidator
{
    /// <summary>Longest identifier-like string (source, ids, names, units).</summary>
    public const int MaxIdentifierLength = 256;

    /// <summary>Longest free-text string (status, message, the classic inner document).</summary>
    public const int MaxTextLength = 4096;

    /// <summary>The source every classic payload is attributed to.</summary>
    public const string ClassicSource = "classic";

    // Canonical level strings: normalising to these avoids a ToLowerInvariant allocation per log event.
    private static readonly string[] Levels = ["trace", "debug", "info", "warn", "error", "fatal"];

    /// <summary>Validates and normalises one incoming event.</summary>
    public static IngestProblem? TryNormalize(
        EventDocument? document,
        EventLocation location,
        DateTime receivedAtUtc,
        IIngestSerializer serializer,
        out IngestEvent? normalized)
    {
        normalized = null;
        if (document is null)
        {
            return IngestProblem.Create(ProblemKind.InvalidField, "An event must be a JSON object.", location.Root);
        }

        return document.Data is not null
            ? TryNormalizeClassic(document.Data, location, receivedAtUtc, serializer, out normalized)
            : TryNormalizeTyped(document, location, receivedAtUtc, out normalized);
    }

    /// <summary>Re-checks an event the back-end received: the front-end normalised it, but the back-end trusts no caller.</summary>
    public static IngestProblem? CheckNormalized(IngestEvent? e, EventLocation location)
    {
        if (e is null)
        {
            return IngestProblem.Create(ProblemKind.InvalidField, "An event must be a JSON object.", location.Root);
        }

        if (e.Type is not { } type)
        {
            return Missing("type", "every event", location);
        }

        // The three members by name, not Enum.IsDefined: under Native AOT that goes through the reflection's enum cache
        // on every event, which showed in a profile of the Native AOT back-end
        // (docs/notebook/lean-services.md#measured-on-a-fresh-clone-2026-11-26).
        if (type is not (EventType.Job or EventType.Metric or EventType.Log))
        {
            return IngestProblem.Create(ProblemKind.UnknownType, "The event type is not job, metric or log.", location.Member("type"));
        }

        return CheckText(e.Source, "source", MaxIdentifierLength, location, nonEmpty: true)
            ?? (e.Timestamp == default ? Missing("timestamp", "every event", location) : null)
            ?? type switch
            {
                EventType.Job => CheckJob(e.JobId, e.ContainerId, e.Status, location),
                EventType.Metric => CheckMetric(e.Name, e.Value, e.Unit, location),
                _ => CheckLog(e.Level, e.Message, location, out _),
            };
    }

    private static IngestProblem? TryNormalizeClassic(
        string data,
        EventLocation location,
        DateTime receivedAtUtc,
        IIngestSerializer serializer,
        out IngestEvent? normalized)
    {
        normalized = null;
        var inner = location.Inner();
        if (data.Length > MaxTextLength)
        {
            return IngestProblem.Create(ProblemKind.InvalidField, $"The inner document is longer than {MaxTextLength} characters.", inner.Root);
        }

        EventDocument? document;
        try
        {
            document = serializer.ReadInnerDocument(data);
        }
        catch (IngestFormatException ex)
        {
            return IngestProblem.Create(ex.Kind, ex.Message, inner.Rebase(ex.Path));
        }

        if (document is null)
        {
            return IngestProblem.Create(ProblemKind.InvalidField, "The inner document must be a JSON object.", inner.Root);
        }

        var problem = CheckJob(document.JobId, document.ContainerId, document.Status, inner);
        if (problem is not null)
        {
            return problem;
        }

        normalized = new IngestEvent
        {
            Type = EventType.Job,
            Source = ClassicSource,
            Timestamp = receivedAtUtc,
            ReceivedAt = receivedAtUtc,
            JobId = document.JobId,
            ContainerId = document.ContainerId,
            Status = document.Status,
        };
        return null;
    }

    private static IngestProblem? TryNormalizeTyped(EventDocument d, EventLocation location, DateTime receivedAtUtc, out IngestEvent? normalized)
    {
        normalized = null;
        if (d.Type is null)
        {
            return IngestProblem.Create(ProblemKind.MissingField, "Every event needs 'type' (job, metric or log), or 'data' for the classic payload.", location.Member("type"));
        }

        if (!TryParseType(d.Type, out var type))
        {
            return IngestProblem.Create(ProblemKind.UnknownType, "'type' must be job, metric or log.", location.Member("type"));
        }

        var problem = CheckText(d.Source, "source", MaxIdentifierLength, location, nonEmpty: true)
            ?? (d.Timestamp is null ? Missing("timestamp", "every event", location) : null);
        if (problem is not null)
        {
            return problem;
        }

        if (!Timestamps.TryParse(d.Timestamp!, out var timestamp))
        {
            return IngestProblem.Create(ProblemKind.InvalidField, "'timestamp' must be an RFC 3339 date-time with an offset, e.g. 2026-11-22T10:00:00Z.", location.Member("timestamp"));
        }

        if (timestamp == default)
        {
            // 0001-01-01T00:00:00Z is DateTime's default, which the back-end's check reads as "no timestamp": accepted
            // here, its forward would be refused and the client answered 502 (found by fuzzing the validator).
            return IngestProblem.Create(ProblemKind.InvalidField, "'timestamp' must be later than 0001-01-01T00:00:00Z.", location.Member("timestamp"));
        }

        string? level = null;
        problem = type switch
        {
            EventType.Job => CheckJob(d.JobId, d.ContainerId, d.Status, location),
            EventType.Metric => CheckMetric(d.Name, d.Value, d.Unit, location),
            _ => CheckLog(d.Level, d.Message, location, out level),
        };
        if (problem is not null)
        {
            return problem;
        }

        // Only the type's own members travel on: a job_id sent on a metric is an unknown member to that type.
        normalized = new IngestEvent { Type = type, Source = d.Source!.Trim(), Timestamp = timestamp, ReceivedAt = receivedAtUtc };
        switch (type)
        {
            case EventType.Job:
                (normalized.JobId, normalized.ContainerId, normalized.Status) = (d.JobId, d.ContainerId, d.Status);
                break;
            case EventType.Metric:
                (normalized.Name, normalized.Value, normalized.Unit) = (d.Name, d.Value, d.Unit);
                break;
            default:
                (normalized.Level, normalized.Message) = (level, d.Message);
                break;
        }

        return null;
    }

    private static IngestProblem? CheckJob(string? jobId, string? containerId, string? status, EventLocation location) =>
        CheckText(jobId, "job_id", MaxIdentifierLength, location, nonEmpty: true, requiredFor: "a job event")
        ?? CheckText(status, "status", MaxTextLength, location, nonEmpty: false, requiredFor: "a job event")
        ?? CheckOptional(containerId, "container_id", MaxIdentifierLength, location);

    private static IngestProblem? CheckMetric(string? name, double? value, string? unit, EventLocation location)
    {
        var problem = CheckText(name, "name", MaxIdentifierLength, location, nonEmpty: true, requiredFor: "a metric event");
        if (problem is not null)
        {
            return problem;
        }

        if (value is null)
        {
            return Missing("value", "a metric event", location);
        }

        if (!double.IsFinite(value.Value))
        {
            return IngestProblem.Create(ProblemKind.InvalidField, "'value' must be a finite number.", location.Member("value"));
        }

        return CheckOptional(unit, "unit", MaxIdentifierLength, location);
    }

    private static IngestProblem? CheckLog(string? level, string? message, EventLocation location, out string? canonicalLevel)
    {
        canonicalLevel = null;
        if (level is null)
        {
            return Missing("level", "a log event", location);
        }

        foreach (var known in Levels)
        {
            if (string.Equals(level, known, StringComparison.OrdinalIgnoreCase))
            {
                canonicalLevel = known;
                break;
            }
        }

        if (canonicalLevel is null)
        {
            return IngestProblem.Create(ProblemKind.InvalidField, "'level' must be one of trace, debug, info, warn, error, fatal.", location.Member("level"));
        }

        return CheckText(message, "message", MaxTextLength, location, nonEmpty: false, requiredFor: "a log event");
    }

    private static IngestProblem? CheckText(string? value, string name, int maxLength, EventLocation location, bool nonEmpty, string requiredFor = "every event")
    {
        if (value is null)
        {
            return Missing(name, requiredFor, location);
        }

        if (nonEmpty && string.IsNullOrWhiteSpace(value))
        {
            return IngestProblem.Create(ProblemKind.InvalidField, $"'{name}' must not be empty.", location.Member(name));
        }

        return CheckOptional(value, name, maxLength, location);
    }

    private static IngestProblem? CheckOptional(string? value, string name, int maxLength, EventLocation location)
    {
        if (value is null)
        {
            return null;
        }

        if (value.Length > maxLength)
        {
            return IngestProblem.Create(ProblemKind.InvalidField, $"'{name}' is longer than {maxLength} characters.", location.Member(name));
        }

        // NUL is refused whether it arrived escaped or raw (Newtonsoft.Json reads raw control characters): most
        // stores cannot keep it (PostgreSQL text, C strings), and a value that cannot be stored must not be acknowledged.
        return value.Contains('\0', StringComparison.Ordinal)
            ? IngestProblem.Create(ProblemKind.InvalidField, $"'{name}' contains a NUL character (U+0000).", location.Member(name))
            : null;
    }

    private static IngestProblem Missing(string name, string requiredFor, EventLocation location) =>
        IngestProblem.Create(ProblemKind.MissingField, $"'{name}' is required for {requiredFor}.", location.Member(name));

    private static bool TryParseType(string value, out EventType type)
    {
        if (value.Equals("job", StringComparison.OrdinalIgnoreCase))
        {
            type = EventType.Job;
            return true;
        }

        if (value.Equals("metric", StringComparison.OrdinalIgnoreCase))
        {
            type = EventType.Metric;
            return true;
        }

        if (value.Equals("log", StringComparison.OrdinalIgnoreCase))
        {
            type = EventType.Log;
            return true;
        }

        type = default;
        return false;
    }
}
