namespace Ingest.Transports.Tests.Suites;

[NeedsOptionalTransport(TransportKind.RedHatLinux)]
public sealed class RedHatLinuxConformanceTests(RedHatLinuxConformanceTests.Server server) : TransportConformanceTests(server), IClassFixture<RedHatLinuxConformanceTests.Server>
{
    public sealed class Server() : TransportServerFixture(TransportVariant.RedHatLinux);
}
