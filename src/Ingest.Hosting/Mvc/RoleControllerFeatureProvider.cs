using System.Reflection;
using Microsoft.AspNetCore.Mvc.Controllers;

namespace Ingest.Hosting.Mvc;

/// <summary>Only this process's role's controllers are controllers: the front-end must not expose /ingest/data.</summary>
internal sealed class RoleControllerFeatureProvider(ServiceRole role) : ControllerFeatureProvider
{
    protected override bool IsController(TypeInfo typeInfo)
    {
        if (!base.IsController(typeInfo))
        {
            return false;
        }

        foreach (var attribute in typeInfo.GetCustomAttributes<IngestRoleAttribute>())
        {
            if (attribute.Role == role)
            {
                return true;
            }
        }

        return false;
    }
}
