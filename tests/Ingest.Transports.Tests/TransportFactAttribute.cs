using Xunit.Sdk;

namespace Ingest.Transports.Tests;

/// <summary>A fact of the shared conformance suite: skipped with the reason in suites whose transport this build lacks.</summary>
[XunitTestCaseDiscoverer("Ingest.Transports.Tests.TransportFactDiscoverer", "Ingest.Transports.Tests")]
[AttributeUsage(AttributeTargets.Method)]
public sealed class TransportFactAttribute : FactAttribute;
