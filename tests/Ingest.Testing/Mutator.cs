namespace Ingest.Testing;

/// <summary>
/// Seeded byte-level mutations of a valid input — bits flipped, bytes inserted, deleted, duplicated, the tail cut,
/// JSON's structural characters and digits dropped in — the cheap half of what afl-fuzz does, for the CI smoke of the
/// fuzz targets and the HTTP fuzz's bodies. The same <see cref="Random"/> seed gives the same mutations, so a failure
/// replays.
/// </summary>
public static class Mutator
{
    private static readonly byte[] Structural = "\"'{}[],:\\\n"u8.ToArray();
    private static readonly byte[] Numeric = "0123456789eE+-."u8.ToArray();

    /// <summary>One to three mutations of <paramref name="input"/>; the input itself is left as it was.</summary>
    public static byte[] Mutate(ReadOnlySpan<byte> input, Random random)
    {
        var bytes = new List<byte>(input.ToArray());
        for (var n = random.Next(1, 4); n > 0 && bytes.Count > 0; n--)
        {
            var at = random.Next(bytes.Count);
            switch (random.Next(7))
            {
                case 0:
                    bytes[at] ^= (byte)(1 << random.Next(8));
                    break;
                case 1:
                    bytes.Insert(at, (byte)random.Next(256));
                    break;
                case 2:
                    bytes.RemoveRange(at, Math.Min(bytes.Count - at, random.Next(1, 8)));
                    break;
                case 3:
                    var length = Math.Min(bytes.Count - at, random.Next(1, 16));
                    bytes.InsertRange(at, bytes.GetRange(at, length));
                    break;
                case 4:
                    bytes.RemoveRange(at, bytes.Count - at);
                    break;
                case 5:
                    bytes[at] = Structural[random.Next(Structural.Length)];
                    break;
                default:
                    bytes.Insert(at, Numeric[random.Next(Numeric.Length)]);
                    break;
            }
        }

        return [.. bytes];
    }
}
