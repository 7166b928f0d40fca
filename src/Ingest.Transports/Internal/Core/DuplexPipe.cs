using System.IO.Pipelines;

namespace Ingest.Transports.Internal.Core;

/// <summary>One end of a connection: the reader of one pipe and the writer of the other.</summary>
internal sealed class DuplexPipe(PipeReader input, PipeWriter output) : IDuplexPipe
{
    public PipeReader Input { get; } = input;

    public PipeWriter Output { get; } = output;
}
