using System.Xml.Linq;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.Options;

namespace Ingest.Hosting.Tests;

/// <summary>The Native AOT build compiles ahead of time the options instantiations that dependency injection closes at
/// start-up (src/Ingest.Hosting/NativeAot/Ingest.Hosting.rd.xml, and Ingest.Storage's for the stores). An Ingest options type added without its entries
/// still works, but the runtime type loader builds them again and start-up memory grows without anything failing:
/// this test is where that shows.</summary>
public sealed class NativeAotInstantiationsTests
{
    // What binding and validating one options type makes dependency injection close: IOptionsFactory<T> and
    // IOptionsMonitor<T> (ValidateOnStart), IOptions<T> (UnnamedOptionsManager<T>).
    private static readonly string[] OptionsGenerics = ["OptionsFactory`1", "OptionsMonitor`1", "UnnamedOptionsManager`1"];

    public static TheoryData<ServiceRole> Roles => new() { ServiceRole.FrontEnd, ServiceRole.BackEnd };

    [Theory]
    [MemberData(nameof(Roles))]
    public void EveryBoundIngestOptionsTypeIsListedForAheadOfTimeCompilation(ServiceRole role)
    {
        var builder = WebApplication.CreateSlimBuilder();
        Testing.ServiceHost.AddServices(builder, role);

        // Bind/BindConfiguration register one change-token source per bound options type.
        var bound = builder.Services
            .Select(d => d.ServiceType)
            .Where(t => t.IsGenericType && t.GetGenericTypeDefinition() == typeof(IOptionsChangeTokenSource<>))
            .Select(t => t.GetGenericArguments()[0])
            .Where(t => t.Assembly.GetName().Name!.StartsWith("Ingest.", StringComparison.Ordinal))
            .Distinct()
            .ToList();
        Assert.NotEmpty(bound);

        var listed = ListedInstantiations();
        foreach (var type in bound)
        {
            foreach (var generic in OptionsGenerics)
            {
                Assert.Contains($"Microsoft.Extensions.Options.{generic}[[{type.FullName},{type.Assembly.GetName().Name}]]", listed);
            }
        }
    }

    private static HashSet<string> ListedInstantiations()
    {
        var folder = new DirectoryInfo(AppContext.BaseDirectory);
        while (folder is not null && !File.Exists(Path.Combine(folder.FullName, "Ingest.sln")))
        {
            folder = folder.Parent;
        }

        Assert.NotNull(folder);
        return ((string[])["Ingest.Hosting", "Ingest.Storage"])
            .Select(project => XDocument.Load(Path.Combine(folder.FullName, "src", project, "NativeAot", project + ".rd.xml")))
            .SelectMany(file => file.Descendants().Where(e => e.Name.LocalName == "Type").Select(e => (string)e.Attribute("Name")!))
            .ToHashSet(StringComparer.Ordinal);
    }
}
