namespace Ingest.Transports.Internal.Epoll;

/// <summary><c>struct io_event</c>: the result of one AIO control block.</summary>
internal struct AioEvent
{
    public ulong Data;
    public ulong Object;
    public long Result;
    public long Result2;
}
