using Ingest.Core.Contract;
using Ingest.Core.Problems;
using Ingest.Hosting.Internal;
using Microsoft.AspNetCore.Mvc.Formatters;
using Microsoft.Extensions.DependencyInjection;

namespace Ingest.Hosting.Mvc;

/// <summary>MVC's output formatter for the contract's JSON bodies, written with the configured serializer.</summary>
internal sealed class IngestOutputFormatter : OutputFormatter
{
    public IngestOutputFormatter()
    {
        SupportedMediaTypes.Add(Core.Parsing.MediaTypes.Json);
        SupportedMediaTypes.Add(IngestProblem.MediaType);
    }

    protected override bool CanWriteType(Type? type) =>
        type == typeof(IngestAck) || type == typeof(PersistAck) || type == typeof(IngestStats)
        || type == typeof(HelloMessage) || type == typeof(IngestProblem);

    public override Task WriteResponseBodyAsync(OutputFormatterWriteContext context)
    {
        var response = context.HttpContext.Response;
        var writer = context.HttpContext.RequestServices.GetRequiredService<ResponseWriter>();
        return context.Object switch
        {
            IngestAck ack => writer.WriteBodyAsync(response, ack),
            PersistAck ack => writer.WriteBodyAsync(response, ack),
            IngestStats stats => writer.WriteBodyAsync(response, stats),
            HelloMessage hello => writer.WriteBodyAsync(response, hello),
            IngestProblem problem => writer.WriteBodyAsync(response, problem),
            var other => throw new InvalidOperationException($"{other?.GetType().Name ?? "null"} is not a contract type."),
        };
    }
}
