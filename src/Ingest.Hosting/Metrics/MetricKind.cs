namespace Ingest.Hosting.Metrics;

/// <summary>How an instrument's measurements aggregate, and which Prometheus type it becomes.</summary>
internal enum MetricKind
{
    /// <summary>Counter: measurements are increments of a monotonic total (<c>counter</c>, <c>_total</c>).</summary>
    CounterDelta,

    /// <summary>ObservableCounter: each observation is the total itself (<c>counter</c>).</summary>
    CounterTotal,

    /// <summary>UpDownCounter: increments that may go down (<c>gauge</c>).</summary>
    GaugeDelta,

    /// <summary>Gauge, ObservableGauge, ObservableUpDownCounter: the last value observed (<c>gauge</c>).</summary>
    GaugeLast,

    /// <summary>Histogram: bucket counts, sum and count (<c>histogram</c>).</summary>
    Histogram,
}
