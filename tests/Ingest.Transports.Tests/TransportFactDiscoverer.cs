using Xunit.Abstractions;
using Xunit.Sdk;

namespace Ingest.Transports.Tests;

/// <summary>Discovers <see cref="TransportFactAttribute"/> tests, skipping them where <see cref="SuiteSkip"/> says.</summary>
public sealed class TransportFactDiscoverer(IMessageSink diagnosticMessageSink) : FactDiscoverer(diagnosticMessageSink)
{
    public override IEnumerable<IXunitTestCase> Discover(ITestFrameworkDiscoveryOptions discoveryOptions, ITestMethod testMethod, IAttributeInfo factAttribute) =>
        SuiteSkip.Reason(testMethod) is { } reason
            ? [SuiteSkip.Skipped(DiagnosticMessageSink, discoveryOptions, testMethod, reason)]
            : base.Discover(discoveryOptions, testMethod, factAttribute);
}
