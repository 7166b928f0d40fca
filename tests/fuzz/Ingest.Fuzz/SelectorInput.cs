namespace Ingest.Fuzz;

/// <summary>
/// The input layout of the targets that try each serializer: one selector byte, then the body. An empty input selects
/// 0 and has an empty body, so the parser is still reached (see <see cref="IFuzzTarget"/>).
/// </summary>
internal static class SelectorInput
{
    public static byte Selector(ReadOnlySpan<byte> input) => input.IsEmpty ? (byte)0 : input[0];

    public static ReadOnlySpan<byte> Body(ReadOnlySpan<byte> input) => input[Math.Min(1, input.Length)..];
}
