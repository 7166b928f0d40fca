using Ingest.Core.Parsing;

namespace Ingest.Core.Tests;

public sealed class RelaxedJsonTests
{
    [Theory]
    [InlineData("{'a':'b'}", "{\"a\":\"b\"}")]
    [InlineData("{\"a\":\"b\"}", "{\"a\":\"b\"}")]
    [InlineData("{'a':'it\\'s'}", "{\"a\":\"it's\"}")]
    [InlineData("{'a':'say \"hi\"'}", "{\"a\":\"say \\\"hi\\\"\"}")]
    [InlineData("{'a':'say \\\"hi\\\"'}", "{\"a\":\"say \\\"hi\\\"\"}")]
    [InlineData("{'a':'back\\\\slash'}", "{\"a\":\"back\\\\slash\"}")]
    [InlineData("{'a':'line\\nbreak \\u00e9'}", "{\"a\":\"line\\nbreak \\u00e9\"}")]
    [InlineData("{\"a\":\"it's\"}", "{\"a\":\"it's\"}")]
    [InlineData("{\"a\":\"it\\'s\"}", "{\"a\":\"it's\"}")]
    [InlineData("{'n': 1.5e3, 'b': true, 'z': null, 'l': [1,'x']}", "{\"n\": 1.5e3, \"b\": true, \"z\": null, \"l\": [1,\"x\"]}")]
    [InlineData("{'k\\'ey':'v'}", "{\"k'ey\":\"v\"}")]
    [InlineData("{'emoji':'☕ 😀'}", "{\"emoji\":\"☕ 😀\"}")]
    public void RewritesOnlyTheQuoting(string relaxed, string strict)
    {
        Assert.Equal(strict, Rewrite(relaxed));
    }

    [Theory]
    [InlineData("{'a':'unterminated}")]
    [InlineData("{\"a\":\"unterminated}")]
    [InlineData("{'a':'ends with backslash\\")]
    public void RefusesAnUnterminatedString(string relaxed)
    {
        var output = new char[RelaxedJson.MaxStrictLength(relaxed.Length)];
        Assert.False(RelaxedJson.TryToStrict(relaxed, output, out _));
    }

    [Fact]
    public void TheWorstCaseOutputFitsTheAdvertisedLength()
    {
        var relaxed = "'" + new string('"', 100) + "'";
        Assert.Equal("\"" + string.Concat(Enumerable.Repeat("\\\"", 100)) + "\"", Rewrite(relaxed));
        Assert.True(Rewrite(relaxed).Length <= RelaxedJson.MaxStrictLength(relaxed.Length));
    }

    [Fact]
    public void OnlyDocumentsWithSingleQuotesNeedRewriting()
    {
        Assert.True(RelaxedJson.NeedsRewrite("{'a':1}"));
        Assert.False(RelaxedJson.NeedsRewrite("{\"a\":1}"));
    }

    private static string Rewrite(string relaxed)
    {
        var output = new char[RelaxedJson.MaxStrictLength(relaxed.Length)];
        Assert.True(RelaxedJson.TryToStrict(relaxed, output, out var written));
        return new string(output, 0, written);
    }
}
