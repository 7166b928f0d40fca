using System.Net.Http.Headers;
using System.Text;
using System.Text.Json.Nodes;

namespace Ingest.Testing;

/// <summary>HTTP helpers for tests: a pooled client and typed posts.</summary>
public static class TestClient
{
    public static HttpClient Create(Uri baseAddress, int maxConnections = 64) =>
        new(new SocketsHttpHandler { MaxConnectionsPerServer = maxConnections, UseProxy = false })
        {
            BaseAddress = baseAddress,
            Timeout = TimeSpan.FromSeconds(30),
        };

    /// <summary>Posts a body; with <paramref name="expectContinue"/> the body waits for the server's go-ahead, as
    /// clients sending large bodies should, so a server that refuses it early is not racing the upload.</summary>
    public static Task<HttpResponseMessage> PostEventAsync(this HttpClient client, string body, string? contentType = "application/json", bool expectContinue = false)
    {
        var content = new ByteArrayContent(Encoding.UTF8.GetBytes(body));
        if (contentType is not null)
        {
            content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);
        }

        var request = new HttpRequestMessage(HttpMethod.Post, "/ingest/event") { Content = content };
        request.Headers.ExpectContinue = expectContinue;
        return client.SendAsync(request);
    }

    public static async Task<JsonObject> JsonAsync(this HttpResponseMessage response) =>
        JsonNode.Parse(await response.Content.ReadAsStringAsync())!.AsObject();
}
