using System.Text;
using Ingest.Storage.Resp;

namespace Ingest.Storage.Tests;

/// <summary>RESP2 replies as Redis sends them, whole and cut at every byte.</summary>
public sealed class RespParserTests
{
    public static TheoryData<string, string> Replies() => new()
    {
        { "+OK\r\n", "OK" },
        { "-ERR unknown command\r\n", "-ERR unknown command" },
        { ":1000\r\n", "1000" },
        { ":-3\r\n", "-3" },
        { "$5\r\nhello\r\n", "hello" },
        { "$0\r\n\r\n", "" },
        { "$-1\r\n", "(nil)" },
        { "$8\r\nwith\r\nlf\r\n", "with\r\nlf" },
        { "*-1\r\n", "(nil array)" },
        { "*0\r\n", "[]" },
        { "*2\r\n$15\r\n1700000000000-0\r\n*4\r\n$4\r\ntype\r\n$3\r\njob\r\n$6\r\nsource\r\n$1\r\na\r\n", "[1700000000000-0, [type, job, source, a]]" },
        { "*3\r\n:1\r\n$-1\r\n-WRONGTYPE x\r\n", "[1, (nil), -WRONGTYPE x]" },
    };

    [Theory]
    [MemberData(nameof(Replies))]
    public void ParsesEveryReplyTypeWholeAndConsumesExactlyIt(string wire, string expected)
    {
        var bytes = Encoding.UTF8.GetBytes(wire + "+NEXT\r\n");

        Assert.True(RespParser.TryParse(bytes, out var reply, out var consumed));

        Assert.Equal(expected, reply.ToString());
        Assert.Equal(Encoding.UTF8.GetByteCount(wire), consumed);
    }

    [Theory]
    [MemberData(nameof(Replies))]
    public void AReplyCutAnywhereIsIncompleteNotWrong(string wire, string expected)
    {
        _ = expected;
        var bytes = Encoding.UTF8.GetBytes(wire);
        for (var length = 0; length < bytes.Length; length++)
        {
            Assert.False(RespParser.TryParse(bytes.AsSpan(0, length), out _, out _), $"complete after {length} of {bytes.Length} bytes");
        }
    }

    [Theory]
    [InlineData("?what\r\n")]
    [InlineData(":12x\r\n")]
    [InlineData("$3\r\nabcd\r\n")]
    [InlineData("*-2\r\n")]
    public void BytesThatAreNotRespAreAProtocolError(string wire) =>
        Assert.Throws<RespProtocolException>(() => RespParser.TryParse(Encoding.UTF8.GetBytes(wire), out _, out _));

    [Fact]
    public void CommandsAreArraysOfBulkStrings()
    {
        using var writer = new RespCommandWriter();
        writer.Begin(4);
        writer.Argument("XADD");
        writer.Argument("s:é");
        writer.Argument(42L);
        writer.Argument(0.5);

        Assert.Equal("*4\r\n$4\r\nXADD\r\n$4\r\ns:é\r\n$2\r\n42\r\n$3\r\n0.5\r\n", Encoding.UTF8.GetString(writer.Written.Span));
        Assert.Equal(1, writer.Commands);
    }
}
