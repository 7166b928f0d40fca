namespace Ingest.Lab.Running;

/// <summary>The two roles of the flow.</summary>
internal enum ServiceRole
{
    FrontEnd,
    BackEnd,
}

internal static class ServiceRoles
{
    /// <summary>The project (under src/) that plays the role.</summary>
    public static string Project(this ServiceRole role) => role == ServiceRole.FrontEnd ? "Ingest.FrontEnd" : "Ingest.BackEnd";
}
