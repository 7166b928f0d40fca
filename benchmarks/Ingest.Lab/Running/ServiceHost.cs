namespace Ingest.Lab.Running;

/// <summary>
/// A network namespace a service runs in: it listens on every address there (the namespace has only the links the lab
/// made), the lab reaches it at <see cref="FromLab"/> and the other services at <see cref="FromPeers"/>.
/// </summary>
internal sealed record ServiceHost(string Namespace, string FromLab, string FromPeers)
{
    /// <summary>The address a service in a namespace listens on.</summary>
    public const string EveryAddress = "0.0.0.0";

    /// <summary>The command that runs <paramref name="fileName"/> inside the namespace: <c>ip netns exec</c> enters it
    /// and then executes the program in its own place, so the process id the lab holds is the service's.</summary>
    public (string FileName, IReadOnlyList<string> Arguments) Wrap(string fileName, IEnumerable<string> arguments) =>
        ("ip", ["netns", "exec", Namespace, fileName, .. arguments]);
}
