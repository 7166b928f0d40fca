using Xunit.Abstractions;
using Xunit.Sdk;

namespace Ingest.Transports.Tests;

/// <summary>Discovers <see cref="TransportTheoryAttribute"/> tests, skipping them (once, not per row) where <see cref="SuiteSkip"/> says.</summary>
public sealed class TransportTheoryDiscoverer(IMessageSink diagnosticMessageSink) : TheoryDiscoverer(diagnosticMessageSink)
{
    public override IEnumerable<IXunitTestCase> Discover(ITestFrameworkDiscoveryOptions discoveryOptions, ITestMethod testMethod, IAttributeInfo theoryAttribute) =>
        SuiteSkip.Reason(testMethod) is { } reason
            ? [SuiteSkip.Skipped(DiagnosticMessageSink, discoveryOptions, testMethod, reason)]
            : base.Discover(discoveryOptions, testMethod, theoryAttribute);
}
