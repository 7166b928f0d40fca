namespace Ingest.Transports.Tests.Suites;

public sealed class LinuxEpollAioInlineConformanceTests(LinuxEpollAioInlineConformanceTests.Server server) : TransportConformanceTests(server), IClassFixture<LinuxEpollAioInlineConformanceTests.Server>
{
    public sealed class Server() : TransportServerFixture(TransportVariant.LinuxEpollAioInline);
}
