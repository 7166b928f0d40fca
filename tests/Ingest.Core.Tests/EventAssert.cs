using Ingest.Core.Events;

namespace Ingest.Core.Tests;

/// <summary>Compares normalised events member by member, so a failure names the member that differs.</summary>
internal static class EventAssert
{
    public static void Same(IngestEvent expected, IngestEvent actual, string because)
    {
        Assert.True(expected.Type == actual.Type, because);
        Assert.Equal(expected.Source, actual.Source);
        Assert.Equal(expected.Timestamp, actual.Timestamp);
        Assert.Equal(DateTimeKind.Utc, actual.Timestamp.Kind);
        Assert.Equal(expected.ReceivedAt, actual.ReceivedAt);
        Assert.Equal(expected.JobId, actual.JobId);
        Assert.Equal(expected.ContainerId, actual.ContainerId);
        Assert.Equal(expected.Status, actual.Status);
        Assert.Equal(expected.Name, actual.Name);
        Assert.Equal(expected.Value, actual.Value);
        Assert.Equal(expected.Unit, actual.Unit);
        Assert.Equal(expected.Level, actual.Level);
        Assert.Equal(expected.Message, actual.Message);
    }
}
