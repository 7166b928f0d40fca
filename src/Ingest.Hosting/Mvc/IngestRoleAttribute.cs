namespace Ingest.Hosting.Mvc;

/// <summary>Marks the role(s) a controller serves; <see cref="RoleControllerFeatureProvider"/> hides it from the other.</summary>
[AttributeUsage(AttributeTargets.Class, AllowMultiple = true, Inherited = false)]
public sealed class IngestRoleAttribute(ServiceRole role) : Attribute
{
    public ServiceRole Role { get; } = role;
}
