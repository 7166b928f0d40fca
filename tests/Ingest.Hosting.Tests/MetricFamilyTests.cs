using System.Text;
using Ingest.Hosting.Metrics;

namespace Ingest.Hosting.Tests;

/// <summary>How a measurement's tags become Prometheus labels: valid names, escaped values, one series per label set.</summary>
public sealed class MetricFamilyTests
{
    [Fact]
    public void TagsThatSanitizeAlikeShareOneSeriesWithValidLabelNames()
    {
        var family = new MetricFamily("requests_total", "Requests.", MetricKind.CounterDelta, []);
        family.Record(1, [new("http.route", "/a"), new("2xx", "q\"z\\\n")]);
        family.Record(2, [new("2xx", "q\"z\\\n"), new("http.route", "/a")]);
        family.Record(4, [new("http_route", "/a"), new("_xx", "q\"z\\\n")]);
        family.Record(8, [new("http.route", "/b"), new("2xx", 200)]);

        var text = new StringBuilder();
        family.WriteTo(text);

        Assert.Equal(
            "# HELP requests_total Requests.\n" +
            "# TYPE requests_total counter\n" +
            "requests_total{_xx=\"200\",http_route=\"/b\"} 8\n" +
            "requests_total{_xx=\"q\\\"z\\\\\\n\",http_route=\"/a\"} 7\n",
            text.ToString());
        Assert.Equal(2, family.Series.Count);
    }

    [Fact]
    public void ALabelSetLongerThanTheBufferIsRecordedWhole()
    {
        var family = new MetricFamily("long", "Long.", MetricKind.GaugeLast, []);
        var value = new string('v', 1000);
        family.Record(3, [new("name", value)]);
        family.Record(5, [new("name", value)]);

        var series = Assert.Single(family.Series);
        Assert.Equal("name=\"" + value + "\"", series.Labels);
        Assert.Equal(5, series.Value);
    }
}
