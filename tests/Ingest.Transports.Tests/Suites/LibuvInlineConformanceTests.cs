namespace Ingest.Transports.Tests.Suites;

public sealed class LibuvInlineConformanceTests(LibuvInlineConformanceTests.Server server) : TransportConformanceTests(server), IClassFixture<LibuvInlineConformanceTests.Server>
{
    public sealed class Server() : TransportServerFixture(TransportVariant.LibuvInline);
}
