using System.Text;
using Ingest.Core.Events;
using Ingest.Core.Parsing;
using Ingest.Core.Samples;
using Ingest.Core.Serialization;
using Ingest.Core.Validation;

namespace Ingest.Core.Tests;

/// <summary>
/// A mutation fuzzer over the request reader (no coverage-guided fuzzer is on the package mirror: SharpFuzz is
/// missing). Valid bodies are mutated — bytes flipped, inserted, deleted, duplicated, truncated, quotes swapped —
/// with a fixed seed, so a failure replays. Whatever the input, the reader must return a problem or normalised
/// events that pass the back-end's own check, and never throw.
/// </summary>
public sealed class ParserFuzzTests
{
    private const int Iterations = 4_000;
    private const int Seed = 20261122;

    private static readonly byte[] Structural = "\"'{}[],:\\"u8.ToArray();
    private static readonly byte[] Numeric = "0123456789eE+-."u8.ToArray();

    private static readonly string[] Seeds =
    [
        SamplePayloads.Classic,
        SamplePayloads.Job(1),
        SamplePayloads.Metric(2),
        SamplePayloads.Log(3),
        SamplePayloads.JsonArray(5),
        "{\"data\": \"{'job_id':'it\\\\'s','status':'say \\\"hi\\\" \\\\u00e9'}\"}",
    ];

    [Theory]
    [MemberData(nameof(Serializers.All), MemberType = typeof(Serializers))]
    public void MutatedBodiesAreEitherRejectedOrNormalisedNeverThrown(SerializerKind kind)
    {
        var reader = Serializers.Reader(kind);
        var random = new Random(Seed);
        var accepted = 0;
        for (var i = 0; i < Iterations; i++)
        {
            var body = Mutate(Encoding.UTF8.GetBytes(Seeds[random.Next(Seeds.Length)]), random);
            var format = random.Next(4) == 0 ? PayloadFormat.Ndjson : PayloadFormat.Json;
            var events = new List<IngestEvent>();
            Core.Problems.IngestProblem? problem;
            try
            {
                problem = reader.Read(body, format, events);
            }
            catch (Exception ex)
            {
                Assert.Fail($"iteration {i} ({format}) threw {ex.GetType().Name}: {ex.Message}\nbody: {Convert.ToBase64String(body)}");
                return;
            }

            if (problem is null)
            {
                accepted++;
                Assert.NotEmpty(events);
                foreach (var e in events)
                {
                    Assert.Null(EventValidator.CheckNormalized(e, EventLocation.WholeBody));
                }
            }
            else
            {
                Assert.InRange(problem.Status, 400, 499);
                Assert.Empty(events);
            }
        }

        // Some mutations leave a valid document (a changed letter in a value): the harness must reach both outcomes.
        Assert.InRange(accepted, 1, Iterations - 1);
    }

    private static byte[] Mutate(byte[] input, Random random)
    {
        var bytes = new List<byte>(input);
        for (var n = random.Next(1, 4); n > 0 && bytes.Count > 0; n--)
        {
            var at = random.Next(bytes.Count);
            switch (random.Next(7))
            {
                case 0:
                    bytes[at] ^= (byte)(1 << random.Next(8));
                    break;
                case 1:
                    bytes.Insert(at, (byte)random.Next(256));
                    break;
                case 2:
                    bytes.RemoveRange(at, Math.Min(bytes.Count - at, random.Next(1, 8)));
                    break;
                case 3:
                    var length = Math.Min(bytes.Count - at, random.Next(1, 16));
                    bytes.InsertRange(at, bytes.GetRange(at, length));
                    break;
                case 4:
                    bytes.RemoveRange(at, bytes.Count - at);
                    break;
                case 5:
                    bytes[at] = Structural[random.Next(Structural.Length)];
                    break;
                default:
                    bytes.Insert(at, Numeric[random.Next(Numeric.Length)]);
                    break;
            }
        }

        return [.. bytes];
    }
}
