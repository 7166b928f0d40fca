using System.Buffers;

namespace Ingest.Hosting.Internal;

/// <summary>A request body held in an array rented from <see cref="ArrayPool{T}.Shared"/>; <see cref="Return"/> once, when done.</summary>
internal readonly struct PooledBody(byte[] array, int length)
{
    public ReadOnlyMemory<byte> Memory => array.AsMemory(0, length);

    public int Length => length;

    public void Return() => ArrayPool<byte>.Shared.Return(array);
}
