using System.Security.Cryptography;
using System.Text;

namespace Ingest.Core.Security;

/// <summary>Compares a presented key with the configured ones in time that does not depend on where they differ:
/// both sides are hashed to a fixed length first, so not even the length leaks.</summary>
public sealed class KeyComparer
{
    private readonly byte[][] _expected;

    public KeyComparer(IEnumerable<string> keys)
    {
        _expected = [.. keys.Where(k => !string.IsNullOrEmpty(k)).Select(Hash)];
    }

    public bool IsEmpty => _expected.Length == 0;

    public bool Matches(string? presented)
    {
        if (string.IsNullOrEmpty(presented))
        {
            return false;
        }

        var hash = Hash(presented);
        var match = false;
        foreach (var expected in _expected)
        {
            // No early exit: every configured key is compared.
            match |= CryptographicOperations.FixedTimeEquals(hash, expected);
        }

        return match;
    }

    private static byte[] Hash(string key) => SHA256.HashData(Encoding.UTF8.GetBytes(key));
}
