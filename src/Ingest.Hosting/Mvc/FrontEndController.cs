using Ingest.Core.Contract;
using Ingest.Hosting.Internal;
using Microsoft.AspNetCore.Mvc;

namespace Ingest.Hosting.Mvc;

/// <summary>The front-end's contract as an MVC controller.</summary>
[IngestRole(ServiceRole.FrontEnd)]
public sealed class FrontEndController(FrontEndHandler handler) : IngestControllerBase
{
    [Route(Routes.IngestEvent)]
    public async Task<IActionResult> Ingest([FromBody] ParsedRequest request, CancellationToken cancellationToken) =>
        Answer(await handler.ForwardAsync(request, cancellationToken), static n => new IngestAck { Accepted = n });

    [Route(Routes.Plaintext)]
    public ContentResult Plaintext() => Content(HelloMessage.Text, Core.Parsing.MediaTypes.PlainText);

    [Route(Routes.Json)]
    public IActionResult Json() => Ok(new HelloMessage());

    /// <summary>The original benchmark's <c>ValuesController.Get(int id)</c>, returning a string as it did.</summary>
    [Route(Routes.Values)]
    [System.Diagnostics.CodeAnalysis.SuppressMessage("Performance", "CA1822", Justification = "MVC actions are instance methods.")]
    [System.Diagnostics.CodeAnalysis.SuppressMessage("Style", "IDE0060", Justification = "The route binds id, as the original did; the answer does not use it.")]
    public string Values(int id) => Routes.ValueText;
}
