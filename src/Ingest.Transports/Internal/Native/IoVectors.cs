using System.Buffers;
using Ingest.Wire.Linux;

namespace Ingest.Transports.Internal.Native;

/// <summary>Gathers the segments of a pipe buffer into an iovec array, pinned for the duration of one syscall.</summary>
internal static unsafe class IoVectors
{
    /// <summary>Fills at most <paramref name="max"/> vectors; returns how many, and their total length.</summary>
    public static int Fill(in ReadOnlySequence<byte> buffer, IoVector* vectors, MemoryHandle[] handles, int max, out long totalBytes)
    {
        var count = 0;
        totalBytes = 0;
        foreach (var segment in buffer)
        {
            if (segment.IsEmpty)
            {
                continue;
            }

            if (count == max)
            {
                break;
            }

            // Blocks of Kestrel's pool are pinned arrays: Pin() costs no GC handle.
            var handle = segment.Pin();
            handles[count] = handle;
            vectors[count].Base = (byte*)handle.Pointer;
            vectors[count].Length = (nuint)segment.Length;
            totalBytes += segment.Length;
            count++;
        }

        return count;
    }

    public static void Unpin(MemoryHandle[] handles, int count)
    {
        for (var i = 0; i < count; i++)
        {
            handles[i].Dispose();
            handles[i] = default;
        }
    }
}
