namespace Ingest.Transports.Internal.Native;

/// <summary><c>struct pollfd</c>.</summary>
internal struct PollDescriptor
{
    public int Fd;
    public short Events;
    public short ReturnedEvents;
}
