using System.Text;
using Ingest.Core.Contract;
using Ingest.Hosting.Internal;
using Microsoft.AspNetCore.Http;

namespace Ingest.Hosting.Minimal;

/// <summary>A fixed text/plain answer; one shared instance per text, so answering allocates nothing.</summary>
internal sealed class TextResult(string text) : IResult
{
    public static readonly TextResult Hello = new(HelloMessage.Text);
    public static readonly TextResult Value = new(Routes.ValueText);
    public static readonly TextResult Healthy = new(Routes.HealthyText);

    private readonly byte[] _utf8 = Encoding.UTF8.GetBytes(text);

    public Task ExecuteAsync(HttpContext httpContext) => ResponseWriter.WriteTextAsync(httpContext.Response, _utf8);
}
