using Ingest.Core.Parsing;

namespace Ingest.Core.Tests;

public sealed class MediaTypesTests
{
    [Theory]
    [InlineData("application/json", PayloadFormat.Json)]
    [InlineData("Application/JSON", PayloadFormat.Json)]
    [InlineData("application/json; charset=utf-8", PayloadFormat.Json)]
    [InlineData("application/json;charset=\"UTF-8\"", PayloadFormat.Json)]
    [InlineData("application/x-ndjson", PayloadFormat.Ndjson)]
    [InlineData("application/x-ndjson; charset=utf8", PayloadFormat.Ndjson)]
    public void AcceptsJsonAndNdjsonInUtf8(string contentType, PayloadFormat expected)
    {
        Assert.True(MediaTypes.TryGetFormat(contentType, out var format));
        Assert.Equal(expected, format);
    }

    [Theory]
    [InlineData(null)]
    [InlineData("")]
    [InlineData("text/plain")]
    [InlineData("application/xml")]
    [InlineData("application/json; charset=iso-8859-1")]
    [InlineData("application/jsonx")]
    [InlineData("multipart/form-data; boundary=x")]
    public void RefusesEverythingElse(string? contentType)
    {
        Assert.False(MediaTypes.TryGetFormat(contentType, out _));
    }
}
