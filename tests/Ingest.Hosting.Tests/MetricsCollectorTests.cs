using System.Buffers;
using System.Diagnostics.Metrics;
using System.Text;
using Ingest.Core.Diagnostics;
using Ingest.Hosting.Metrics;
using Microsoft.Extensions.DependencyInjection;

namespace Ingest.Hosting.Tests;

/// <summary>A scrape written as bytes is the scrape's text in UTF-8, however the builder chunks the text.</summary>
public sealed class MetricsCollectorTests
{
    [Fact]
    public void WritingAScrapeAsBytesKeepsCharactersSplitAcrossTheBuildersChunks()
    {
        using var services = new ServiceCollection().AddMetrics().BuildServiceProvider();
        using var collector = new MetricsCollector(services.GetRequiredService<IMeterFactory>());
        using var meter = services.GetRequiredService<IMeterFactory>().Create(IngestMetrics.MeterName);
        var counter = meter.CreateCounter<long>("ingest.test.characters");

        // Two runs of a character outside the BMP (a surrogate pair each), 80,000 chars in all, starting at offsets
        // of both parities: whatever the builder's chunk boundaries, some fall between the two halves of a pair.
        var smiles = string.Concat(Enumerable.Repeat("\U0001F642", 20_000));
        counter.Add(1, new KeyValuePair<string, object?>("value", smiles));
        counter.Add(2, new KeyValuePair<string, object?>("value", "a" + smiles));

        // The runtime's observable instruments change between two scrapes, so the bytes are checked by content.
        for (var scrape = 0; scrape < 2; scrape++)
        {
            var output = new ArrayBufferWriter<byte>();
            var written = collector.WriteTo(output);
            Assert.Equal(output.WrittenCount, written);
            var text = Encoding.UTF8.GetString(output.WrittenSpan);
            Assert.DoesNotContain('\uFFFD', text);
            Assert.Contains("ingest_test_characters_total{value=\"" + smiles + "\"} 1\n", text, StringComparison.Ordinal);
            Assert.Contains("ingest_test_characters_total{value=\"a" + smiles + "\"} 2\n", text, StringComparison.Ordinal);
        }
    }
}
