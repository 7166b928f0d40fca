namespace Ingest.Transports.Tests.Suites;

public sealed class IoUringConformanceTests(IoUringConformanceTests.Server server) : TransportConformanceTests(server), IClassFixture<IoUringConformanceTests.Server>
{
    public sealed class Server() : TransportServerFixture(TransportVariant.IoUring);
}
