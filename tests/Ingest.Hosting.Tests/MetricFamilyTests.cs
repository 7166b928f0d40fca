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

    [Fact]
    public void LabelSetsThatFollowOneAnotherOnAThreadEachKeepTheirOwnSeries()
    {
        // The thread's last label set is compared before anything is rendered: a set that differs from it in one value,
        // one name, one tag more or less, or a value's type, must still find its own series.
        var family = new MetricFamily("forwards_total", "Forwards.", MetricKind.CounterDelta, []);
        KeyValuePair<string, object?>[] ok = [new("outcome", "ok"), new("status", 202)];
        KeyValuePair<string, object?>[] failed = [new("outcome", "failed"), new("status", 202)];
        KeyValuePair<string, object?>[] rejected = [new("outcome", "ok"), new("status", 503)];
        KeyValuePair<string, object?>[] renamed = [new("result", "ok"), new("status", 202)];
        KeyValuePair<string, object?>[] shorter = [new("outcome", "ok")];
        KeyValuePair<string, object?>[] asText = [new("outcome", "ok"), new("status", "202")];
        KeyValuePair<string, object?>[] asDouble = [new("outcome", "ok"), new("status", 202.5)];

        foreach (var (tags, value) in new[] { (ok, 1), (ok, 1), (failed, 10), (ok, 1), (rejected, 100), (rejected, 100), (renamed, 1000), (shorter, 10000), (ok, 1), (asText, 1), (asDouble, 100000), (asDouble, 100000), (ok, 1) })
        {
            family.Record(value, tags);
        }

        var text = new StringBuilder();
        family.WriteTo(text);
        Assert.Equal(
            "# HELP forwards_total Forwards.\n" +
            "# TYPE forwards_total counter\n" +
            "forwards_total{outcome=\"failed\",status=\"202\"} 10\n" +
            "forwards_total{outcome=\"ok\"} 10000\n" +
            "forwards_total{outcome=\"ok\",status=\"202\"} 6\n" +
            "forwards_total{outcome=\"ok\",status=\"202.5\"} 200000\n" +
            "forwards_total{outcome=\"ok\",status=\"503\"} 200\n" +
            "forwards_total{result=\"ok\",status=\"202\"} 1000\n",
            text.ToString());
    }

    [Fact]
    public void ThreadsRecordingTheSameFamiliesAtOnceLoseNoMeasurement()
    {
        var families = new[]
        {
            new MetricFamily("a_total", "A.", MetricKind.CounterDelta, []),
            new MetricFamily("b_total", "B.", MetricKind.CounterDelta, []),
        };
        const int PerThread = 20_000;
        var threads = Enumerable.Range(0, 4).Select(t => new Thread(() =>
        {
            for (var i = 0; i < PerThread; i++)
            {
                // Each thread alternates two label sets over both families, as requests of two routes would.
                KeyValuePair<string, object?>[] tags = [new("route", i % 2 == 0 ? "/even" : "/odd"), new("thread", t)];
                families[i % 2].Record(1, tags);
                families[(i + 1) % 2].Record(1, tags);
            }
        })).ToList();
        threads.ForEach(t => t.Start());
        threads.ForEach(t => t.Join());

        foreach (var family in families)
        {
            Assert.Equal(8, family.Series.Count);
            Assert.All(family.Series, series => Assert.Equal(PerThread / 2, series.Value));
        }
    }
}
