using System.Globalization;

namespace Ingest.Testing;

/// <summary>
/// A strict reader of the Prometheus text exposition format 0.0.4, as the tests check /metrics with it: every line
/// is a comment (<c># HELP</c>, <c># TYPE</c>) or a sample <c>name{label="value",…} number</c>; anything else throws.
/// </summary>
public sealed class PrometheusText
{
    private readonly List<(string Name, Dictionary<string, string> Labels, double Value)> _samples = [];

    private PrometheusText()
    {
    }

    /// <summary>Metric family name → type, from the <c># TYPE</c> lines.</summary>
    public Dictionary<string, string> Types { get; } = new(StringComparer.Ordinal);

    public IReadOnlyList<(string Name, Dictionary<string, string> Labels, double Value)> Samples => _samples;

    public static PrometheusText Parse(string text)
    {
        var result = new PrometheusText();
        foreach (var line in text.Split('\n'))
        {
            if (line.Length == 0)
            {
                continue;
            }

            if (line.StartsWith("# TYPE ", StringComparison.Ordinal))
            {
                var parts = line.Split(' ');
                result.Types.Add(parts[2], parts[3]);
                continue;
            }

            if (line.StartsWith('#'))
            {
                continue;
            }

            result._samples.Add(Sample(line));
        }

        return result;
    }

    /// <summary>The sum of the samples named <paramref name="name"/> whose labels include every one given.</summary>
    public double Sum(string name, params (string Label, string Value)[] match) =>
        _samples.Where(s => s.Name == name && match.All(m => s.Labels.TryGetValue(m.Label, out var v) && v == m.Value)).Sum(s => s.Value);

    public bool Has(string name) => _samples.Any(s => s.Name == name);

    private static (string, Dictionary<string, string>, double) Sample(string line)
    {
        var labels = new Dictionary<string, string>(StringComparer.Ordinal);
        var i = 0;
        while (i < line.Length && line[i] != '{' && line[i] != ' ')
        {
            i++;
        }

        var name = line[..i];
        if (i < line.Length && line[i] == '{')
        {
            i++;
            while (line[i] != '}')
            {
                var eq = line.IndexOf('=', i);
                var label = line[i..eq];
                if (line[eq + 1] != '"')
                {
                    throw new FormatException($"Label value not quoted: {line}");
                }

                var value = new System.Text.StringBuilder();
                var j = eq + 2;
                for (; line[j] != '"'; j++)
                {
                    if (line[j] == '\\')
                    {
                        j++;
                        value.Append(line[j] == 'n' ? '\n' : line[j]);
                    }
                    else
                    {
                        value.Append(line[j]);
                    }
                }

                labels.Add(label, value.ToString());
                i = j + 1;
                if (line[i] == ',')
                {
                    i++;
                }
            }

            i++;
        }

        if (i >= line.Length || line[i] != ' ')
        {
            throw new FormatException($"No value: {line}");
        }

        var number = line[(i + 1)..];
        var parsed = number switch
        {
            "+Inf" => double.PositiveInfinity,
            "-Inf" => double.NegativeInfinity,
            "NaN" => double.NaN,
            _ => double.Parse(number, NumberStyles.Float, CultureInfo.InvariantCulture),
        };
        return (name, labels, parsed);
    }
}
