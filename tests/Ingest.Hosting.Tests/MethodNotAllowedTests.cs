using System.Net;
using System.Text;
using Ingest.Core.Samples;
using Ingest.Testing;

namespace Ingest.Hosting.Tests;

/// <summary>
/// Every route of both services answers its own methods, and any other with 405, an Allow header naming them and a
/// problem body (RFC 9110 §15.5.6), in every API style. HEAD is served wherever GET is: the same status and headers,
/// no body. Paths that are no route of the service stay 404 whatever the method.
/// </summary>
public sealed class MethodNotAllowedTests(StyleFlows flows) : IClassFixture<StyleFlows>
{
    private const string ReadAllow = "GET, HEAD";
    private const string WriteAllow = "POST";

    private static readonly string[] Methods = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "FOO"];

    /// <summary>Each service's routes with the Allow value they must answer; /metrics is on in the default settings.</summary>
    private static readonly (ServiceRole Role, string Path, string Allow)[] RoutesOfServices =
    [
        (ServiceRole.FrontEnd, "/ingest/event", WriteAllow),
        (ServiceRole.FrontEnd, "/plaintext", ReadAllow),
        (ServiceRole.FrontEnd, "/json", ReadAllow),
        (ServiceRole.FrontEnd, "/api/values/5", ReadAllow),
        (ServiceRole.FrontEnd, "/healthz", ReadAllow),
        (ServiceRole.FrontEnd, "/metrics", ReadAllow),
        (ServiceRole.FrontEnd, "/", ReadAllow),
        (ServiceRole.FrontEnd, "/status", ReadAllow),
        (ServiceRole.BackEnd, "/ingest/data", WriteAllow),
        (ServiceRole.BackEnd, "/ingest/stats", ReadAllow),
        (ServiceRole.BackEnd, "/healthz", ReadAllow),
        (ServiceRole.BackEnd, "/metrics", ReadAllow),
        (ServiceRole.BackEnd, "/", ReadAllow),
        (ServiceRole.BackEnd, "/status", ReadAllow),
    ];

    /// <summary>A valid body for each write route, so an allowed POST is answered 200.</summary>
    private static readonly Dictionary<string, string> Bodies = new()
    {
        ["/ingest/event"] = SamplePayloads.Classic,
        ["/ingest/data"] = """[{"type":"job","source":"s","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:00Z","job_id":"j","status":"s"}]""",
    };

    public static TheoryData<ApiStyle, ServiceRole, string, string> StylesServicesRoutesAndMethods()
    {
        var data = new TheoryData<ApiStyle, ServiceRole, string, string>();
        foreach (var style in Enum.GetValues<ApiStyle>())
        {
            foreach (var (role, path, _) in RoutesOfServices)
            {
                foreach (var method in Methods)
                {
                    data.Add(style, role, path, method);
                }
            }
        }

        return data;
    }

    public static TheoryData<ApiStyle, ServiceRole> StylesAndServices() => EnumMatrix.Every<ApiStyle, ServiceRole>();

    [Theory]
    [MemberData(nameof(StylesServicesRoutesAndMethods))]
    public async Task ARouteAnswersItsMethodsAndAnyOtherWith405AndAllow(ApiStyle style, ServiceRole role, string path, string method)
    {
        var allow = Array.Find(RoutesOfServices, r => r.Role == role && r.Path == path).Allow;
        using var client = TestClient.Create(flows.Address(style, role));
        using var response = await SendAsync(client, method, path);
        var body = await response.Content.ReadAsStringAsync();
        var because = $"{style} {role} {method} {path}: {(int)response.StatusCode} {body}";

        if (!allow.Split(", ").Contains(method))
        {
            Assert.True(response.StatusCode == HttpStatusCode.MethodNotAllowed, because);
            Assert.Equal(allow, string.Join(", ", response.Content.Headers.Allow));
            if (method == "HEAD")
            {
                Assert.Empty(body);
            }
            else
            {
                BadInputTests.AssertProblem(body, response.Content.Headers.ContentType?.MediaType, 405, "method-not-allowed", null, because);
                Assert.Contains(allow, body, StringComparison.Ordinal);
            }

            return;
        }

        Assert.True(response.StatusCode == HttpStatusCode.OK, because);
        if (method == "HEAD")
        {
            // The headers GET would send, without the body. (Headers read as sent: HttpClient's ContentLength property
            // would compute a length from the buffered body when the server sent none.)
            using var get = await SendAsync(client, "GET", path);
            Assert.Empty(body);
            Assert.Equal(get.Content.Headers.ContentType, response.Content.Headers.ContentType);
            Assert.Equal(SentContentLength(get), SentContentLength(response));
            if (path == "/json")
            {
                Assert.Equal("27", SentContentLength(response)); // {"message":"Hello, World!"}
            }
        }
    }

    [Theory]
    [MemberData(nameof(StylesAndServices))]
    public async Task APathThatIsNoRouteOfTheServiceIs404WhateverTheMethod(ApiStyle style, ServiceRole role)
    {
        using var client = TestClient.Create(flows.Address(style, role));
        var otherServicesRoutes = role == ServiceRole.FrontEnd ? new[] { "/ingest/data", "/ingest/stats" } : ["/ingest/event", "/plaintext", "/json", "/api/values/5"];
        foreach (var path in otherServicesRoutes.Concat(["/nothing", "/ingest", "/ingest/event/1", "/api/values/abc", "/api/values/99999999999", "/favicon.ico", "/healthz.json"]))
        {
            foreach (var method in Methods)
            {
                using var response = await SendAsync(client, method, path);
                var body = await response.Content.ReadAsStringAsync();
                var because = $"{style} {role} {method} {path}: {(int)response.StatusCode} {body}";
                Assert.True(response.StatusCode == HttpStatusCode.NotFound, because);
                Assert.Empty(response.Content.Headers.Allow);
                if (method != "HEAD")
                {
                    BadInputTests.AssertProblem(body, response.Content.Headers.ContentType?.MediaType, 404, "not-found", null, because);
                }
            }
        }
    }

    private static string? SentContentLength(HttpResponseMessage response) =>
        response.Content.Headers.NonValidated.TryGetValues("Content-Length", out var values) ? values.ToString() : null;

    private static Task<HttpResponseMessage> SendAsync(HttpClient client, string method, string path)
    {
        var request = new HttpRequestMessage(new HttpMethod(method), path);
        if (method == "POST" && Bodies.TryGetValue(path, out var body))
        {
            request.Content = new StringContent(body, Encoding.UTF8, "application/json");
        }

        return client.SendAsync(request);
    }
}
