using System.Net;
using System.Net.Sockets;
using Microsoft.AspNetCore.Connections;

namespace Ingest.Transports.RedHat;

/// <summary>
/// Detects the build of the package that loses responses on .NET 10: it writes a response into an accepted connection's
/// output, disposes the connection at once (as Kestrel does after a response that closes the connection) and checks that
/// a loopback client received every byte. The archived source's DisposeAsync cancels the pending send, so the bytes the
/// transport thread had not yet taken from the pipe never leave.
/// </summary>
internal static class LossyDisposeProbe
{
    /// <summary>
    /// Connections tried: the loss is a race. Through Kestrel it hit 3 to 51 of 100 Connection: close responses in three
    /// runs; here, with no HTTP work between the write and the dispose, it hits more often. Any one loss refuses the build.
    /// </summary>
    private const int Tries = 20;

    /// <summary>A typical small response; larger ones are lost just the same.</summary>
    private const int ResponseBytes = 4096;

    /// <summary>Bounds the whole probe, so a transport that never accepts cannot hang start-up.</summary>
    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(10);

    /// <summary>True when any try lost bytes.</summary>
    public static bool LosesQueuedResponses(IConnectionListenerFactory factory)
    {
        // Start-up validation is synchronous; the probe runs on the thread pool, not on a captured context.
        try
        {
            return Task.Run(() => ProbeAsync(factory)).WaitAsync(Limit).GetAwaiter().GetResult();
        }
        catch (TimeoutException)
        {
            throw new InvalidOperationException($"The Red Hat transport's start-up probe (one loopback connection at a time) did not finish within {Limit.TotalSeconds:0} s. Set {RedHatLinuxOptions.SectionName}:RefuseLossyBuild=false to skip it.");
        }
    }

    private static async Task<bool> ProbeAsync(IConnectionListenerFactory factory)
    {
        using var timeout = new CancellationTokenSource(Limit);
        var listener = await factory.BindAsync(new IPEndPoint(IPAddress.Loopback, 0), timeout.Token);
        try
        {
            var response = new byte[ResponseBytes];
            for (var i = 0; i < Tries; i++)
            {
                using var client = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
                await client.ConnectAsync(listener.EndPoint, timeout.Token);

                // No token: the package's AcceptAsync throws on a cancellable one.
                var connection = await listener.AcceptAsync() ?? throw new InvalidOperationException("The Red Hat transport stopped accepting during its start-up probe.");
                await connection.Transport.Output.WriteAsync(response, timeout.Token);
                await connection.DisposeAsync();
                if (await ReceiveToEndAsync(client, timeout.Token) < ResponseBytes)
                {
                    return true;
                }
            }

            return false;
        }
        finally
        {
            await listener.UnbindAsync(CancellationToken.None);
            await listener.DisposeAsync();
        }
    }

    private static async Task<int> ReceiveToEndAsync(Socket client, CancellationToken cancellationToken)
    {
        var buffer = new byte[ResponseBytes];
        var total = 0;
        try
        {
            int read;
            while ((read = await client.ReceiveAsync(buffer, SocketFlags.None, cancellationToken)) > 0)
            {
                total += read;
            }
        }
        catch (SocketException)
        {
            // A reset after part of the data (or none): what was counted is what arrived.
        }

        return total;
    }
}
