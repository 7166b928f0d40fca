namespace Ingest.Transports.Tests.Suites;

public sealed class SocketsConformanceTests(SocketsConformanceTests.Server server) : TransportConformanceTests(server), IClassFixture<SocketsConformanceTests.Server>
{
    public sealed class Server() : TransportServerFixture(TransportVariant.Sockets);
}
