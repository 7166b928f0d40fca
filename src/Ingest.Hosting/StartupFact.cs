namespace Ingest.Hosting;

/// <summary>One <c>name=value</c> pair of the start-up line. Each concern registers its own, so the line
/// always tells the whole configuration (transport, serializer, strategy, GC, …) without one place knowing all.</summary>
public sealed record StartupFact(string Name, Func<IServiceProvider, string> Value);
