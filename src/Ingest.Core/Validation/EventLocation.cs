namespace Ingest.Core.Validation;

/// <summary>
/// Where an event sits in the request: the whole body, or item <see cref="Index"/> of a batch; and whether
/// we are inside a classic payload's inner document. Paths are built from it only when a problem is
/// reported, so the success path allocates no strings.
/// </summary>
public readonly record struct EventLocation(int Index, bool InInnerDocument)
{
    /// <summary>The body itself is the event.</summary>
    public static EventLocation WholeBody => new(-1, false);

    public static EventLocation Item(int index) => new(index, false);

    public EventLocation Inner() => this with { InInnerDocument = true };

    /// <summary>The JSON path of the event object itself.</summary>
    public string Root => (Index < 0 ? "$" : $"$[{Index}]") + (InInnerDocument ? ".data" : "");

    /// <summary>The path of a member of the event object.</summary>
    public string Member(string name) => $"{Root}.{name}";

    /// <summary>Rebases a path a serializer reported relative to this event's own document ("$.value").</summary>
    public string Rebase(string relativePath) =>
        relativePath.StartsWith('$') ? Root + relativePath[1..] : Root + "." + relativePath;
}
