using System.Reflection;
using Xunit.Abstractions;
using Xunit.Sdk;

namespace Ingest.Transports.Tests;

/// <summary>
/// The skip decision for one test of a shared suite, taken per derived class: the suite's tests are declared once in
/// an abstract class, so only the discoverer sees which transport's class a test belongs to.
/// </summary>
internal static class SuiteSkip
{
    public static string? Reason(ITestMethod testMethod) =>
        testMethod.TestClass.Class.ToRuntimeType().GetCustomAttribute<NeedsOptionalTransportAttribute>() is { } needs
            ? TransportKinds.MissingReason(needs.Kind)
            : null;

    public static IXunitTestCase Skipped(IMessageSink sink, ITestFrameworkDiscoveryOptions options, ITestMethod testMethod, string reason) =>
        new XunitSkippedDataRowTestCase(sink, options.MethodDisplayOrDefault(), options.MethodDisplayOptionsOrDefault(), testMethod, reason);
}
