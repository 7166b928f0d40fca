namespace Ingest.Transports.Tests.Suites;

public sealed class LinuxEpollConformanceTests(LinuxEpollConformanceTests.Server server) : TransportConformanceTests(server), IClassFixture<LinuxEpollConformanceTests.Server>
{
    public sealed class Server() : TransportServerFixture(TransportVariant.LinuxEpoll);
}
