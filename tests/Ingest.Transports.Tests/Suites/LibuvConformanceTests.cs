namespace Ingest.Transports.Tests.Suites;

public sealed class LibuvConformanceTests(LibuvConformanceTests.Server server) : TransportConformanceTests(server), IClassFixture<LibuvConformanceTests.Server>
{
    public sealed class Server() : TransportServerFixture(TransportVariant.Libuv);
}
