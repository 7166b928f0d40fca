using Microsoft.AspNetCore.Mvc.Formatters;
using Microsoft.Extensions.DependencyInjection;

namespace Ingest.Hosting.Mvc;

/// <summary>
/// MVC's model binding for write requests: reads and validates the body with the same code as the other
/// styles and binds a <see cref="ParsedRequest"/>, which carries the events or the problem. It accepts
/// every content type so that a 415 is answered with the contract's problem body, not MVC's own.
/// </summary>
internal sealed class IngestInputFormatter : InputFormatter
{
    private readonly ServiceRole _role;

    public IngestInputFormatter(ServiceRole role)
    {
        _role = role;
        SupportedMediaTypes.Add(Core.Parsing.MediaTypes.Json);
        SupportedMediaTypes.Add(Core.Parsing.MediaTypes.Ndjson);
    }

    public override bool CanRead(InputFormatterContext context) => context.ModelType == typeof(ParsedRequest);

    // Overridden whole: the base class would answer an empty body itself, before our contract could.
    public override async Task<InputFormatterResult> ReadAsync(InputFormatterContext context)
    {
        var http = context.HttpContext;
        var parsed = _role == ServiceRole.FrontEnd
            ? await http.RequestServices.GetRequiredService<FrontEndHandler>().ReadAsync(http.Request, http.RequestAborted)
            : await http.RequestServices.GetRequiredService<BackEndHandler>().ReadAsync(http.Request, http.RequestAborted);
        return InputFormatterResult.Success(parsed);
    }

    public override Task<InputFormatterResult> ReadRequestBodyAsync(InputFormatterContext context) => ReadAsync(context);
}
