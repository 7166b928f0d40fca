namespace Ingest.Transports.Internal.Core;

/// <summary>
/// Connection ids in Kestrel's shape: 13 base-32 characters of a counter seeded with the start time, so ids from
/// two runs do not collide in merged logs.
/// </summary>
internal static class ConnectionIdGenerator
{
    private const string Alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUV";
    private const int Length = 13;
    private const int BitsPerCharacter = 5;

    private static long s_last = DateTime.UtcNow.Ticks;

    public static string Next() => string.Create(Length, Interlocked.Increment(ref s_last), static (span, id) =>
    {
        for (var i = Length - 1; i >= 0; i--)
        {
            span[i] = Alphabet[(int)(id & 31)];
            id >>= BitsPerCharacter;
        }
    });
}
