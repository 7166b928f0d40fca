namespace Ingest.Transports.Tests.Suites;

public sealed class IoUringDeferredConformanceTests(IoUringDeferredConformanceTests.Server server) : TransportConformanceTests(server), IClassFixture<IoUringDeferredConformanceTests.Server>
{
    public sealed class Server() : TransportServerFixture(TransportVariant.IoUringDeferred);
}
