using Ingest.Core.Validation;

namespace Ingest.Core.Tests;

public sealed class TimestampsTests
{
    [Theory]
    [InlineData("2026-11-22T10:00:00Z", "2026-11-22T10:00:00.0000000Z")]
    [InlineData("2026-11-22t10:00:00z", "2026-11-22T10:00:00.0000000Z")]
    [InlineData("2026-11-22T11:30:00+01:30", "2026-11-22T10:00:00.0000000Z")]
    [InlineData("2026-11-22T05:00:00-05:00", "2026-11-22T10:00:00.0000000Z")]
    [InlineData("2026-11-22T10:00:00.5Z", "2026-11-22T10:00:00.5000000Z")]
    [InlineData("2026-11-22T10:00:00.123456789Z", "2026-11-22T10:00:00.1234567Z")]
    public void ReadsRfc3339WithAnOffset(string text, string utc)
    {
        Assert.True(Timestamps.TryParse(text, out var parsed));
        Assert.Equal(DateTimeKind.Utc, parsed.Kind);
        Assert.Equal(utc, parsed.ToString("O", System.Globalization.CultureInfo.InvariantCulture));
    }

    [Theory]
    [InlineData("2026-11-22T10:00:00")]
    [InlineData("2026-11-22")]
    [InlineData("2026-11-22T10:00Z")]
    [InlineData("2026-11-22 10:00:00Z")]
    [InlineData("2026-11-22T10:00:00.Z")]
    [InlineData("2026-13-22T10:00:00Z")]
    [InlineData("2026-11-22T10:00:00+0100")]
    [InlineData("yesterday")]
    [InlineData("")]
    public void RefusesEverythingElse(string text)
    {
        Assert.False(Timestamps.TryParse(text, out _));
    }
}
