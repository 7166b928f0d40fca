namespace Ingest.Hosting;

/// <summary>Where operational endpoints (<c>/healthz</c>, <c>/metrics</c>, the status page <c>/</c> and <c>/status</c>) are served. Bound from the <c>Management</c> section.</summary>
public sealed class ManagementOptions
{
    public const string SectionName = "Management";

    /// <summary>When set, the operational endpoints answer only on this local port, and only they answer on it;
    /// add it to the listening URLs (<c>--urls "http://127.0.0.1:5000;http://127.0.0.1:9090"</c>). Defaults to 0:
    /// served with everything else.</summary>
    public int Port { get; set; }
}
