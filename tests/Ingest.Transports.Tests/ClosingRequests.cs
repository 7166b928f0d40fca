using System.Globalization;
using System.Net;
using System.Net.Sockets;

namespace Ingest.Transports.Tests;

/// <summary>
/// Requests that each end their connection (<c>Connection: close</c>): Kestrel disposes the connection right after the
/// response, so a transport that drops what is still queued at dispose loses it. The archived Red Hat transport lost 42 of 50.
/// </summary>
public static class ClosingRequests
{
    public const int Count = 100;

    /// <summary>How many of <see cref="Count"/> closing requests got no response, or not the whole one.</summary>
    public static async Task<int> CountLostAsync(EndPoint endPoint, CancellationToken cancellationToken)
    {
        var lost = 0;
        for (var i = 0; i < Count; i++)
        {
            await using var connection = await RawHttpConnection.ConnectAsync(endPoint, cancellationToken);
            await connection.SendAsync(RawHttpConnection.Get($"/seq/{i}", "Connection: close\r\n"), cancellationToken);
            RawHttpResponse? response;
            try
            {
                response = await connection.ReadResponseAsync(cancellationToken);
            }
            catch (Exception error) when (error is SocketException or IOException)
            {
                response = null;
            }

            if (response is not { Status: 200 } || response.BodyText != i.ToString(CultureInfo.InvariantCulture))
            {
                lost++;
            }
        }

        return lost;
    }
}
