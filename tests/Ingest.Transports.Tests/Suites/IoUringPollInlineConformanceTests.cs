namespace Ingest.Transports.Tests.Suites;

public sealed class IoUringPollInlineConformanceTests(IoUringPollInlineConformanceTests.Server server) : TransportConformanceTests(server), IClassFixture<IoUringPollInlineConformanceTests.Server>
{
    public sealed class Server() : TransportServerFixture(TransportVariant.IoUringPollInline);
}
