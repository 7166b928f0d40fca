namespace Ingest.Transports.Tests.Suites;

[NeedsOptionalTransport(TransportKind.RedHatLinux)]
public sealed class RedHatLinuxInlineConformanceTests(RedHatLinuxInlineConformanceTests.Server server) : TransportConformanceTests(server), IClassFixture<RedHatLinuxInlineConformanceTests.Server>
{
    public sealed class Server() : TransportServerFixture(TransportVariant.RedHatLinuxInline);
}
