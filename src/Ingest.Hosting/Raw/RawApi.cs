using System.Text;
using Ingest.Core.Contract;
using Ingest.Hosting.Internal;
using Microsoft.AspNetCore.Http;

namespace Ingest.Hosting.Raw;

/// <summary>
/// The contract as one terminal middleware: a switch over method and path, the body read straight from the
/// request pipe, no routing and no model binding. What is left is the cost of Kestrel and our own code.
/// </summary>
internal sealed class RawApi(ServiceRole role, ResponseWriter writer, IServiceProvider services)
{
    private static readonly byte[] Hello = Encoding.UTF8.GetBytes(HelloMessage.Text);
    private static readonly byte[] Value = Encoding.UTF8.GetBytes(Routes.ValueText);
    private static readonly byte[] Healthy = Encoding.UTF8.GetBytes(Routes.HealthyText);

    // Resolved once: the handlers are singletons, and a lookup per request is what this style avoids.
    private readonly FrontEndHandler? _frontEnd = role == ServiceRole.FrontEnd ? Resolve<FrontEndHandler>(services) : null;
    private readonly BackEndHandler? _backEnd = role == ServiceRole.BackEnd ? Resolve<BackEndHandler>(services) : null;

    public Task InvokeAsync(HttpContext context)
    {
        var request = context.Request;
        var path = request.Path.Value ?? "";
        if (HttpMethods.IsPost(request.Method))
        {
            if (_frontEnd is not null && path == Routes.IngestEvent)
            {
                return _frontEnd.HandleAsync(context);
            }

            if (_backEnd is not null && path == Routes.IngestData)
            {
                return _backEnd.HandleAsync(context);
            }
        }
        else if (HttpMethods.IsGet(request.Method))
        {
            var answer = Get(path);
            if (!answer.IsEmpty)
            {
                return ResponseWriter.WriteTextAsync(context.Response, answer);
            }

            if (_frontEnd is not null && path == Routes.Json)
            {
                return writer.WriteJsonAsync(context.Response, new HelloMessage());
            }

            if (_backEnd is not null && path == Routes.IngestStats)
            {
                return writer.WriteJsonAsync(context.Response, _backEnd.Stats());
            }
        }

        return writer.WriteProblemAsync(context.Response, Routes.NotFound());
    }

    private ReadOnlyMemory<byte> Get(string path)
    {
        if (path == Routes.Health)
        {
            return Healthy;
        }

        if (_frontEnd is null)
        {
            return default;
        }

        if (path == Routes.Plaintext)
        {
            return Hello;
        }

        // /api/values/{id:int}, as the other styles' route constraint.
        return path.StartsWith(Routes.ValuesPrefix, StringComparison.Ordinal)
            && int.TryParse(path.AsSpan(Routes.ValuesPrefix.Length), System.Globalization.NumberStyles.AllowLeadingSign, System.Globalization.CultureInfo.InvariantCulture, out _)
            ? Value
            : default;
    }

    private static T Resolve<T>(IServiceProvider services)
        where T : notnull => (T)(services.GetService(typeof(T)) ?? throw new InvalidOperationException($"{typeof(T).Name} is not registered."));
}
