using Microsoft.Extensions.Http.Resilience;
using Microsoft.Extensions.Options;
using Polly;
using Polly.CircuitBreaker;
using Polly.Retry;
using Polly.Timeout;

namespace Ingest.Core.Forwarding;

/// <summary>
/// The forward's resilience, as a <see cref="ResilienceHandler"/> (Microsoft.Extensions.Http.Resilience) in every
/// back-end handler chain: outermost the whole forward's deadline, then retries with jittered exponential back-off,
/// then a circuit breaker, then each attempt's deadline — Polly's strategies set as the package's HTTP strategy
/// options set them, with the package's predicate for "transient" (connection errors, attempt timeouts, 408, 429,
/// 5xx). <see cref="ClientStrategy.LoopDirect"/>, which has no HttpClient, keeps the same options in its own loop
/// (<see cref="Direct.LoopDirectSender"/>, <see cref="Direct.ForwardBreaker"/>).
/// </summary>
/// <remarks>
/// <para>One pipeline per back-end target (scheme, host and port), built once per front-end and selected per request
/// by its URI: the breaker's state lives in that pipeline, not in a handler, so every handler chain shares it —
/// Static's one chain, Factory's rotated ones and a PerRequest client's new chain per forward alike. A new
/// <see cref="HttpClient"/> never gets a closed breaker of its own.</para>
/// <para>Why not the package's registration API (<c>AddResilienceHandler(...).SelectPipelineByAuthority()</c>): it
/// serves only clients from IHttpClientFactory, so Static and PerRequest would need a second mechanism with
/// breakers of their own, and its registry adds telemetry (a metric and a log event per attempt) to every forward.
/// The handler's public constructor with a pipeline selector gives the same per-authority pipelines to every HttpClient
/// strategy.</para>
/// <para>The handler re-sends the same request message on a retry; its body is a <see cref="ByteArrayContent"/> over
/// the forward's pooled buffer, which can be read again and is kept until the forward has finished.</para>
/// </remarks>
public sealed class BackEndResilience
{
    private readonly ForwardingOptions _options;
    private readonly Uri[] _targets;
    private readonly ResiliencePipeline<HttpResponseMessage>[] _pipelines;
    private readonly Func<HttpRequestMessage, ResiliencePipeline<HttpResponseMessage>> _select;

    public BackEndResilience(IOptions<ForwardingOptions> options)
    {
        _options = options.Value;
        _targets = Array.ConvertAll(_options.BackEnds, b => new Uri(new Uri(b), BackEndForwarder.DataPath));
        _pipelines = PerAuthority(() => Build(_options));
        _select = Select;
    }

    /// <summary>
    /// One <typeparamref name="T"/> per target from <paramref name="create"/>, the same instance for targets under one
    /// authority (scheme, host and port): targets listed twice are one server, with one breaker. Call it once per
    /// front-end, so every connection and every loop shares what it holds.
    /// </summary>
    public T[] PerAuthority<T>(Func<T> create)
    {
        var byAuthority = new Dictionary<string, T>(StringComparer.OrdinalIgnoreCase);
        return Array.ConvertAll(_targets, target =>
        {
            var authority = Authority(target);
            if (!byAuthority.TryGetValue(authority, out var shared))
            {
                byAuthority[authority] = shared = create();
            }

            return shared;
        });
    }

    /// <summary>The <c>/ingest/data</c> URI of every configured back-end, in configuration order.</summary>
    public IReadOnlyList<Uri> Targets => _targets;

    /// <summary>A new resilience handler over <paramref name="inner"/> (or, without one, for IHttpClientFactory to
    /// chain); it owns no state but the selector, so handlers are as cheap and as many as the strategy wants.</summary>
    public DelegatingHandler CreateHandler(HttpMessageHandler? inner = null)
    {
        var handler = new ResilienceHandler(_select);
        if (inner is not null)
        {
            handler.InnerHandler = inner;
        }

        return handler;
    }

    /// <summary>The pipeline of the back-end a request goes to. The forwarder sends to the very <see cref="Uri"/>
    /// instances of <see cref="Targets"/>, so a reference comparison finds it without allocating.</summary>
    internal ResiliencePipeline<HttpResponseMessage> Select(HttpRequestMessage request)
    {
        var uri = request.RequestUri;
        for (var i = 0; i < _targets.Length; i++)
        {
            if (ReferenceEquals(uri, _targets[i]))
            {
                return _pipelines[i];
            }
        }

        if (uri is { IsAbsoluteUri: true })
        {
            for (var i = 0; i < _targets.Length; i++)
            {
                if (Uri.Compare(uri, _targets[i], UriComponents.SchemeAndServer, UriFormat.UriEscaped, StringComparison.OrdinalIgnoreCase) == 0)
                {
                    return _pipelines[i];
                }
            }
        }

        throw new InvalidOperationException($"'{uri}' is not one of the configured back-ends (Forwarding:BackEnds): a back-end client sends nowhere else.");
    }

    private static string Authority(Uri target) => target.GetComponents(UriComponents.SchemeAndServer, UriFormat.UriEscaped);

    private static ResiliencePipeline<HttpResponseMessage> Build(ForwardingOptions o)
    {
        // The HTTP strategy options of Microsoft.Extensions.Http.Resilience, written out (LoopDirect's ForwardBreaker
        // and LoopDirectSender keep the same options with the same meaning, without Polly).
        // Outermost first: the whole forward's deadline, then retries, then the breaker, then each attempt's deadline.
        var builder = new ResiliencePipelineBuilder<HttpResponseMessage>()
            .AddTimeout(new TimeoutStrategyOptions { Name = "forward-timeout", Timeout = TimeSpan.FromMilliseconds(o.TimeoutMilliseconds) });
        if (o.RetryAttempts > 0)
        {
            // A 503's Retry-After is for the front-end's caller, not for the retry: the back-end's value is in whole
            // seconds, the forward's budget (TimeoutMilliseconds) is usually shorter, so waiting for it would turn a
            // clear 503 into a 504 of unknown outcome while holding an in-flight slot. The retry keeps its own
            // back-off (no DelayGenerator reads the header); if every attempt fails, the caller gets the 503 with
            // its Retry-After.
            builder.AddRetry(new RetryStrategyOptions<HttpResponseMessage>
            {
                Name = "forward-retry",
                ShouldHandle = args => new ValueTask<bool>(HttpClientResiliencePredicates.IsTransient(args.Outcome)),
                MaxRetryAttempts = o.RetryAttempts,
                Delay = TimeSpan.FromMilliseconds(o.RetryBaseDelayMilliseconds),
                BackoffType = DelayBackoffType.Exponential,
                UseJitter = true,
                OnRetry = args =>
                {
                    if (args.Outcome.Exception is { } error && UnsettledForwards.MayHaveLanded(error))
                    {
                        args.Context.GetRequestMessage()?.Options.Set(UnsettledForwards.RequestOption, true);
                    }

                    return default;
                },
            });
        }

        if (o.BreakerBreakSeconds > 0)
        {
            builder.AddCircuitBreaker(new CircuitBreakerStrategyOptions<HttpResponseMessage>
            {
                Name = "forward-breaker",
                ShouldHandle = args => new ValueTask<bool>(HttpClientResiliencePredicates.IsTransient(args.Outcome)),
                FailureRatio = o.BreakerFailureRatio,
                MinimumThroughput = o.BreakerMinimumThroughput,
                SamplingDuration = TimeSpan.FromSeconds(o.BreakerSamplingSeconds),
                BreakDuration = TimeSpan.FromSeconds(o.BreakerBreakSeconds),
            });
        }

        return builder
            .AddTimeout(new TimeoutStrategyOptions { Name = "attempt-timeout", Timeout = TimeSpan.FromMilliseconds(o.AttemptTimeoutMilliseconds) })
            .Build();
    }
}
