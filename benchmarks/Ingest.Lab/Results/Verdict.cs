using Perfolizer.Mathematics.Common;
using Perfolizer.Mathematics.QuantileEstimators;
using Pragmastat;

namespace Ingest.Lab.Results;

/// <summary>
/// One comparison of a run: the subject's median requests per second over the baseline's, and a 95% interval for that
/// ratio. Each median is the Harrell–Davis estimate over every measured repeat of every round, with its 95% confidence
/// interval (Maritz–Jarrett, both from Perfolizer, BenchmarkDotNet's statistics library); the ratio's interval divides
/// them crosswise (subject's lower bound over the baseline's upper, and the reverse), so it holds the ratio whenever both
/// medians lie in theirs — wider than either, and never narrower than the rounds allow. Each median's interval is kept
/// within the measured range, which with few measurements the approximation can overreach.
/// </summary>
internal sealed record Verdict(string Question, string Subject, string Baseline, int Connections, double Ratio, double Lower, double Upper, int SubjectSamples, int BaselineSamples)
{
    public Standing Standing =>
        SubjectSamples < 2 || BaselineSamples < 2 || double.IsNaN(Lower) || double.IsNaN(Upper) ? Standing.Undecided
        : Lower > 1 ? Standing.Ahead
        : Upper < 1 ? Standing.Behind
        : Standing.Level;

    /// <summary>"1.91× (1.80–2.03) ahead".</summary>
    public string Describe() => Standing == Standing.Undecided
        ? $"{Format.Ratio(Ratio)} (no interval: {Math.Min(SubjectSamples, BaselineSamples)} measurement(s))"
        : $"{Format.Ratio(Ratio)} ({Format.Ratio(Lower).TrimEnd('×')}–{Format.Ratio(Upper)}) {Standing.ToString().ToLowerInvariant()}";

    /// <summary>A median and its 95% interval over a scenario's measured repeats (requests per second).</summary>
    public static (double Median, double Lower, double Upper) MedianInterval(IReadOnlyList<double> values)
    {
        if (values.Count == 0)
        {
            return (double.NaN, double.NaN, double.NaN);
        }

        if (values.Count == 1)
        {
            return (values[0], double.NaN, double.NaN);
        }

        var interval = HarrellDavisQuantileEstimator.Instance
            .QuantileConfidenceIntervalEstimator(new Sample([.. values]), Probability.Median)
            .ConfidenceInterval(ConfidenceLevel.L95);
        // With a handful of measurements the Maritz–Jarrett bounds (a normal approximation) can reach past what was
        // measured, even below zero: an interval for a median is kept within the measured range.
        return (interval.Estimation, Math.Max(interval.Lower, values.Min()), Math.Min(interval.Upper, values.Max()));
    }

    public static Verdict Of(string question, ScenarioResult subject, ScenarioResult baseline, int connections)
    {
        var (subjectRates, baselineRates) = (Rates(subject), Rates(baseline));
        var a = MedianInterval(subjectRates);
        var b = MedianInterval(baselineRates);
        return new Verdict(question, subject.Name, baseline.Name, connections, a.Median / b.Median, a.Lower / b.Upper, a.Upper / b.Lower,
            subjectRates.Count, baselineRates.Count);
    }

    /// <summary>Requests per second of every measured repeat of every round.</summary>
    public static IReadOnlyList<double> Rates(ScenarioResult result) => [.. result.Runs.Select(r => r.RequestsPerSecond)];
}
