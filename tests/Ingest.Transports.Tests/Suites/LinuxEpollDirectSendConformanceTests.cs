namespace Ingest.Transports.Tests.Suites;

public sealed class LinuxEpollDirectSendConformanceTests(LinuxEpollDirectSendConformanceTests.Server server) : TransportConformanceTests(server), IClassFixture<LinuxEpollDirectSendConformanceTests.Server>
{
    public sealed class Server() : TransportServerFixture(TransportVariant.LinuxEpollDirectSend);
}
