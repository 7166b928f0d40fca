using System.Net;
using System.Net.Http.Headers;
using Ingest.Core.Forwarding;
using Ingest.Core.Samples;
using Ingest.Core.Sinks;
using Ingest.Testing;
using Microsoft.AspNetCore.Http;
using Polly.CircuitBreaker;

namespace Ingest.Hosting.Tests;

/// <summary>
/// The forward's resilience handler (Microsoft.Extensions.Http.Resilience) as the back-end sees it: retries re-send
/// one Idempotency-Key, a back-end's Retry-After goes to the caller rather than into the retry's wait, and the circuit
/// breaker belongs to the back-end, shared by every client whatever the strategy.
/// </summary>
public sealed class ForwardResilienceTests
{
    public static TheoryData<ClientStrategy> Strategies() => new(Enum.GetValues<ClientStrategy>());

    [Theory]
    [MemberData(nameof(Strategies))]
    public async Task RetriesResendOneIdempotencyKeyAndTheBackEndPersistsOnce(ClientStrategy strategy)
    {
        // Between the front-end and a real back-end, a relay passes every attempt on, then answers the first two
        // with 503 as if the back-end's answer had been lost: the back-end sees the same forward three times.
        var configuration = new FlowConfiguration(Strategy: strategy);
        await using var backEnd = await ServiceHost.StartAsync(ServiceRole.BackEnd, configuration.BackEnd());
        using var relayClient = TestClient.Create(backEnd.BaseAddress);
        await using var relay = await ScriptedBackEnd.StartAsync(async (context, attempt) =>
        {
            using var relayed = await RelayAsync(relayClient, context);
            if (attempt <= 2)
            {
                // A Retry-After far beyond the forward's deadline: a retry that waited for it would end in 504.
                await ScriptedBackEnd.Status(context, StatusCodes.Status503ServiceUnavailable, retryAfterSeconds: 60);
                return;
            }

            context.Response.StatusCode = (int)relayed.StatusCode;
            context.Response.ContentType = relayed.Content.Headers.ContentType?.ToString();
            await context.Response.Body.WriteAsync(await relayed.Content.ReadAsByteArrayAsync());
        });
        await using var frontEnd = await ServiceHost.StartAsync(ServiceRole.FrontEnd, configuration.FrontEnd(
            [relay.BaseAddress],
            new() { ["Forwarding:RetryAttempts"] = "2", ["Forwarding:TimeoutMilliseconds"] = "20000" }));
        using var client = TestClient.Create(frontEnd.BaseAddress);

        using var response = await client.PostEventAsync(SamplePayloads.Classic);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(3, relay.Keys.Count);
        Assert.Single(relay.Keys.Distinct());
        Assert.Equal(32, relay.Keys.First().Length);
        Assert.Equal(1, backEnd.Get<BackEndHandler>().Stats().Total);
        Assert.Equal(2, backEnd.Get<IdempotencyGuard>().Duplicates);
    }

    [Theory]
    [InlineData(ClientStrategy.Static)]
    [InlineData(ClientStrategy.LoopDirect)]
    public async Task A503ThatOutlastsTheRetriesReachesTheCallerWithItsRetryAfter(ClientStrategy strategy)
    {
        await using var backEnd = await ScriptedBackEnd.StartAsync(static (context, _) =>
            ScriptedBackEnd.Status(context, StatusCodes.Status503ServiceUnavailable, retryAfterSeconds: 7));
        await using var frontEnd = await ServiceHost.StartAsync(ServiceRole.FrontEnd, new FlowConfiguration(Strategy: strategy).FrontEnd(
            [backEnd.BaseAddress],
            new() { ["Forwarding:RetryAttempts"] = "3", ["Forwarding:TimeoutMilliseconds"] = "20000" }));
        using var client = TestClient.Create(frontEnd.BaseAddress);

        using var response = await client.PostEventAsync(SamplePayloads.Classic);

        // Every attempt was made (none waited 7 s: the deadline would have cut the third), and the last 503's
        // Retry-After is the caller's.
        Assert.Equal(HttpStatusCode.ServiceUnavailable, response.StatusCode);
        Assert.Equal(TimeSpan.FromSeconds(7), response.Headers.RetryAfter?.Delta);
        BadInputTests.AssertProblem(await response.Content.ReadAsStringAsync(), response.Content.Headers.ContentType?.MediaType, 503, "overloaded", null, "back-end sheds");
        Assert.Equal(4, backEnd.Requests);
        Assert.Single(backEnd.Keys.Distinct());
    }

    [Theory]
    [MemberData(nameof(Strategies))]
    public async Task AForwardWhoseAnswerWasLostEndsAs504NotAsTheLaterAttemptsRefusal(ClientStrategy strategy)
    {
        // The first attempt is read in full, then its connection is reset before any answer: the back-end may have
        // persisted it. The retries are refused with 503. A 503 would tell the caller nothing was persisted and invite
        // a retry under a new key — a duplicate if the first attempt had landed — so the forward must end unknown: 504.
        await using var backEnd = await ScriptedBackEnd.StartAsync(static async (context, attempt) =>
        {
            using var body = new MemoryStream();
            await context.Request.Body.CopyToAsync(body);
            if (attempt == 1)
            {
                context.Abort();
                return;
            }

            await ScriptedBackEnd.Status(context, StatusCodes.Status503ServiceUnavailable, retryAfterSeconds: 1);
        });
        await using var frontEnd = await ServiceHost.StartAsync(ServiceRole.FrontEnd, new FlowConfiguration(Strategy: strategy).FrontEnd(
            [backEnd.BaseAddress],
            new() { ["Forwarding:RetryAttempts"] = "2", ["Forwarding:TimeoutMilliseconds"] = "20000" }));
        using var client = TestClient.Create(frontEnd.BaseAddress);

        using var response = await client.PostEventAsync(SamplePayloads.Classic);

        var problem = await response.Content.ReadAsStringAsync();
        Assert.Equal(HttpStatusCode.GatewayTimeout, response.StatusCode);
        BadInputTests.AssertProblem(problem, response.Content.Headers.ContentType?.MediaType, 504, "backend-timeout", null, "a lost answer");
        Assert.Contains("outcome is unknown", problem, StringComparison.Ordinal);
        Assert.Equal(3, backEnd.Requests);
        Assert.Single(backEnd.Keys.Distinct());
    }

    [Theory]
    [MemberData(nameof(Strategies))]
    public async Task TheBreakerOpensForEveryStrategyAndThenRefusesWithoutTrying(ClientStrategy strategy)
    {
        // With a new client per forward (PerRequest), a breaker per client would never see enough failures to open.
        await using var backEnd = await ScriptedBackEnd.StartAsync(static (context, _) => ScriptedBackEnd.Status(context, StatusCodes.Status500InternalServerError));
        await using var frontEnd = await ServiceHost.StartAsync(ServiceRole.FrontEnd, new FlowConfiguration(Strategy: strategy).FrontEnd(
            [backEnd.BaseAddress],
            new() { ["Forwarding:RetryAttempts"] = "1", ["Forwarding:BreakerMinimumThroughput"] = "4", ["Forwarding:BreakerBreakSeconds"] = "60" }));
        using var client = TestClient.Create(frontEnd.BaseAddress);

        var opened = false;
        for (var i = 0; i < 20 && !opened; i++)
        {
            using var response = await client.PostEventAsync(SamplePayloads.Classic);
            opened = response.StatusCode == HttpStatusCode.ServiceUnavailable;
            Assert.True(opened || response.StatusCode == HttpStatusCode.BadGateway, $"forward {i}: {response.StatusCode}");
        }

        Assert.True(opened, "the circuit never opened");
        var tried = backEnd.Requests;
        for (var i = 0; i < 3; i++)
        {
            using var refused = await client.PostEventAsync(SamplePayloads.Classic);
            Assert.Equal(HttpStatusCode.ServiceUnavailable, refused.StatusCode);
            Assert.NotNull(refused.Headers.RetryAfter);
            BadInputTests.AssertProblem(await refused.Content.ReadAsStringAsync(), refused.Content.Headers.ContentType?.MediaType, 503, "overloaded", null, "open circuit");
        }

        Assert.Equal(tried, backEnd.Requests);
    }

    [Fact]
    public async Task ABreakerOpenedThroughOneClientRefusesOnANewOneAndOnlyForItsBackEnd()
    {
        var configuration = new FlowConfiguration(Strategy: ClientStrategy.PerRequest);
        await using var failing = await ScriptedBackEnd.StartAsync(static (context, _) => ScriptedBackEnd.Status(context, StatusCodes.Status500InternalServerError));
        await using var healthy = await ServiceHost.StartAsync(ServiceRole.BackEnd, configuration.BackEnd());
        await using var frontEnd = await ServiceHost.StartAsync(ServiceRole.FrontEnd, configuration.FrontEnd(
            [failing.BaseAddress, healthy.BaseAddress],
            new() { ["Forwarding:RetryAttempts"] = "0", ["Forwarding:BreakerMinimumThroughput"] = "4", ["Forwarding:BreakerBreakSeconds"] = "60" }));
        var handlers = frontEnd.Get<BackEndHandlerFactory>();

        // Opened with one hand-built client (URIs built here, not the forwarder's own instances)...
        using (var first = new HttpClient(handlers.Create()))
        {
            var opened = false;
            for (var i = 0; i < 20 && !opened; i++)
            {
                try
                {
                    using var response = await first.SendAsync(Forward(failing.BaseAddress));
                    Assert.Equal(HttpStatusCode.InternalServerError, response.StatusCode);
                }
                catch (BrokenCircuitException)
                {
                    opened = true;
                }
            }

            Assert.True(opened, "the circuit never opened");
        }

        // ...it refuses on a new client and on the factory's, without reaching the back-end, and the other back-end
        // still gets its forwards.
        var tried = failing.Requests;
        using var second = new HttpClient(handlers.Create());
        await Assert.ThrowsAsync<BrokenCircuitException>(() => second.SendAsync(Forward(failing.BaseAddress)));
        await Assert.ThrowsAsync<BrokenCircuitException>(() => frontEnd.Get<BackEndHttpClient>().Http.SendAsync(Forward(failing.BaseAddress)));
        Assert.Equal(tried, failing.Requests);

        using var healthyResponse = await second.SendAsync(Forward(healthy.BaseAddress));
        Assert.Equal(HttpStatusCode.OK, healthyResponse.StatusCode);
        Assert.Equal(1, healthy.Get<BackEndHandler>().Stats().Total);
    }

    private static HttpRequestMessage Forward(Uri backEnd)
    {
        var content = new StringContent("[" + ResilienceTests.SampleForward + "]");
        content.Headers.ContentType = new MediaTypeHeaderValue("application/json");
        var request = new HttpRequestMessage(HttpMethod.Post, new Uri(backEnd, BackEndForwarder.DataPath)) { Content = content };
        request.Headers.TryAddWithoutValidation(BackEndForwarder.IdempotencyKeyHeader, Guid.NewGuid().ToString("N"));
        return request;
    }

    /// <summary>Passes a forward on to the real back-end as received: body, Content-Type and Idempotency-Key.</summary>
    private static async Task<HttpResponseMessage> RelayAsync(HttpClient backEnd, HttpContext context)
    {
        using var body = new MemoryStream();
        await context.Request.Body.CopyToAsync(body);
        var content = new ByteArrayContent(body.ToArray());
        content.Headers.ContentType = MediaTypeHeaderValue.Parse(context.Request.ContentType!);
        var request = new HttpRequestMessage(HttpMethod.Post, BackEndForwarder.DataPath) { Content = content };
        request.Headers.TryAddWithoutValidation(BackEndForwarder.IdempotencyKeyHeader, context.Request.Headers[BackEndForwarder.IdempotencyKeyHeader].ToString());
        return await backEnd.SendAsync(request);
    }
}
