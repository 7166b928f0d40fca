namespace Ingest.Transports.Tests.Suites;

public sealed class IoUringCooperativeConformanceTests(IoUringCooperativeConformanceTests.Server server) : TransportConformanceTests(server), IClassFixture<IoUringCooperativeConformanceTests.Server>
{
    public sealed class Server() : TransportServerFixture(TransportVariant.IoUringCooperative);
}
