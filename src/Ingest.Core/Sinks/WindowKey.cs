using System.Buffers;

namespace Ingest.Core.Sinks;

/// <summary>
/// An Idempotency-Key as the back-end remembers it: a key of 32 lowercase hexadecimal digits (a <see cref="Guid"/>
/// formatted "N", what Ingest's front-ends send) as its 16 bytes, any other key as its text. Two keys are equal
/// exactly when their texts are (ordinal): only the lowercase form is packed, so "AB…" and "ab…" stay two keys.
/// </summary>
public readonly struct WindowKey : IEquatable<WindowKey>
{
    private const int PackedLength = 32;

    private static readonly SearchValues<char> LowerHex = SearchValues.Create("0123456789abcdef");

    private readonly Guid _packed;
    private readonly string? _text;

    private WindowKey(Guid packed, string? text)
    {
        _packed = packed;
        _text = text;
    }

    /// <summary>Whether the key is held as 16 bytes rather than as its text.</summary>
    public bool IsPacked => _text is null;

    public static WindowKey From(string key) =>
        key.Length == PackedLength && !key.AsSpan().ContainsAnyExcept(LowerHex)
            ? new WindowKey(Guid.ParseExact(key, "N"), null)
            : new WindowKey(default, key);

    public bool Equals(WindowKey other) => _packed == other._packed && string.Equals(_text, other._text, StringComparison.Ordinal);

    public override bool Equals(object? obj) => obj is WindowKey other && Equals(other);

    public override int GetHashCode() => _text is null ? _packed.GetHashCode() : StringComparer.Ordinal.GetHashCode(_text);

    public static bool operator ==(WindowKey left, WindowKey right) => left.Equals(right);

    public static bool operator !=(WindowKey left, WindowKey right) => !left.Equals(right);
}
