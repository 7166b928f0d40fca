using System.Diagnostics.CodeAnalysis;

namespace Ingest.Wire.Linux;

/// <summary><c>struct pollfd</c>.</summary>
[SuppressMessage("Design", "CA1051:Do not declare visible instance fields", Justification = "A kernel ABI struct: its fields are its layout, read and written in place.")]
public struct PollDescriptor
{
    public int Fd;
    public short Events;
    public short ReturnedEvents;
}
