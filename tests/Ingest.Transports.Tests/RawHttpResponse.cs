using System.Text;

namespace Ingest.Transports.Tests;

public sealed record RawHttpResponse(int Status, byte[] Body)
{
    public string BodyText => Encoding.UTF8.GetString(Body);
}
