using Ingest.Core.Contract;
using Ingest.Hosting.Internal;
using Microsoft.AspNetCore.Mvc;

namespace Ingest.Hosting.Mvc;

/// <summary>The back-end's contract as an MVC controller.</summary>
[IngestRole(ServiceRole.BackEnd)]
public sealed class BackEndController(BackEndHandler handler) : IngestControllerBase
{
    [Route(Routes.IngestData)]
    public async Task<IActionResult> Persist([FromBody] ParsedRequest request, CancellationToken cancellationToken) =>
        Answer(await handler.PersistAsync(request, BackEndHandler.IdempotencyKey(Request), cancellationToken), static n => new PersistAck { Persisted = n });

    [Route(Routes.IngestStats)]
    public IActionResult Stats() => Ok(handler.Stats());
}
