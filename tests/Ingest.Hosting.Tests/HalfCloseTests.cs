using System.Globalization;
using System.Text;
using Ingest.Core.Samples;
using Ingest.Testing;
using Ingest.Transports;

namespace Ingest.Hosting.Tests;

/// <summary>
/// The front door's rule for a client that half-closes (docs/contract.md#half-close), on every transport and in every API
/// style: a complete request followed by the client's FIN is answered, its event persisted once, and the connection closed
/// after the answer; a request cut short by the FIN is never acknowledged and persists nothing. Many times each, because
/// what decided the outcome before was whether the FIN arrived with the body or after it.
/// </summary>
public sealed class HalfCloseTests
{
    private const int Attempts = 20;

    private static readonly TimeSpan ExchangeTimeout = TimeSpan.FromSeconds(10);

    private const string Head = "POST /ingest/event HTTP/1.1\r\nHost: ingest\r\nContent-Type: application/json\r\n";

    private static readonly byte[] Body = Encoding.UTF8.GetBytes(SamplePayloads.Classic);

    /// <summary>The head of a chunked request whose one chunk is the whole body, up to the chunk's size line.</summary>
    private static readonly string ChunkedHead = Head + $"Transfer-Encoding: chunked\r\n\r\n{Body.Length.ToString("x", CultureInfo.InvariantCulture)}\r\n";

    public static TheoryData<TransportKind, ApiStyle> TransportsAndStyles() => EnumMatrix.Every<TransportKind, ApiStyle>();

    [Theory]
    [MemberData(nameof(TransportsAndStyles))]
    public async Task ACompleteRequestFollowedByTheClientsFinIsAnsweredAndPersistedOnce(TransportKind transport, ApiStyle style)
    {
        await using var flow = await Flow.StartAsync(new FlowConfiguration(Style: style, Transport: transport.ToString()));
        byte[] withLength = [.. Encoding.ASCII.GetBytes(Head + $"Content-Length: {Body.Length}\r\n\r\n"), .. Body];
        byte[] chunked = [.. Encoding.ASCII.GetBytes(ChunkedHead), .. Body, .. "\r\n0\r\n\r\n"u8];

        for (var i = 0; i < Attempts; i++)
        {
            var exchange = await RawHttp.ExchangeAsync(flow.FrontEnd.BaseAddress, i % 2 == 0 ? withLength : chunked, halfClose: true, ExchangeTimeout);

            var answer = Assert.Single(exchange.Responses);
            Assert.True(answer.Status == 200, $"attempt {i}: {exchange} {answer.Body}");
            Assert.Equal("""{"accepted":1}""", answer.Body);
            Assert.True(exchange.Closed, $"attempt {i}: the connection was left open after the client's FIN");
            Assert.Equal(i + 1, flow.Stats().Total);
        }
    }

    [Theory]
    [MemberData(nameof(TransportsAndStyles))]
    public async Task ARequestCutShortByTheClientsFinIsNeverAcknowledgedAndPersistsNothing(TransportKind transport, ApiStyle style)
    {
        await using var flow = await Flow.StartAsync(new FlowConfiguration(Style: style, Transport: transport.ToString()));
        byte[][] cutShort =
        [
            [.. Encoding.ASCII.GetBytes(Head + $"Content-Length: {Body.Length}\r\n\r\n"), .. Body.AsSpan(0, Body.Length / 2)],
            [.. Encoding.ASCII.GetBytes(ChunkedHead), .. Body],
            Encoding.ASCII.GetBytes(Head + "Content-Le"),
        ];

        for (var i = 0; i < Attempts; i++)
        {
            var exchange = await RawHttp.ExchangeAsync(flow.FrontEnd.BaseAddress, cutShort[i % cutShort.Length], halfClose: true, ExchangeTimeout);

            Assert.True(exchange.First is null or { Status: >= 400 and < 500 }, $"attempt {i}: {exchange}");
            Assert.True(exchange.Closed, $"attempt {i}: the connection was left open");
        }

        Assert.Equal(0, flow.Stats().Total);
    }
}
