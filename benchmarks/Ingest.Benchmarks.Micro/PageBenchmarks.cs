using System.Globalization;
using System.IO.Pipelines;
using System.Text;
using System.Text.Encodings.Web;
using BenchmarkDotNet.Attributes;
using Ingest.Hosting.Pages;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.Abstractions;
using Microsoft.AspNetCore.Mvc.ModelBinding;
using Microsoft.AspNetCore.Mvc.Rendering;
using Microsoft.AspNetCore.Mvc.ViewEngines;
using Microsoft.AspNetCore.Mvc.ViewFeatures;
using Microsoft.AspNetCore.Routing;
using Microsoft.AspNetCore.WebUtilities;
using Microsoft.Extensions.DependencyInjection;

namespace Ingest.Benchmarks.Micro;

/// <summary>The view engines of the API styles.</summary>
public enum PageEngine
{
    /// <summary>MVC Razor views with a layout (the Mvc style): view lookup, view context, view data, a buffered writer.</summary>
    MvcViews,

    /// <summary>RazorSlices with a layout slice (Minimal and Raw, and Native AOT): straight into a pipe.</summary>
    RazorSlices,
}

/// <summary>
/// One status page rendered by each engine from the same model — the back-end's page with 14 configuration facts,
/// 6 counters and 20 last events — into a sink that keeps nothing, as each engine writes a response: MVC through its
/// view engine into an <see cref="HttpResponseStreamWriter"/>, RazorSlices into a <see cref="PipeWriter"/>. The
/// templates are the services' own (src/Ingest.Hosting/Pages). The setup renders once and checks the HTML.
/// </summary>
[BenchmarkCategory(Categories.Pages)]
public class PageRenderBenchmarks
{
    private const string ViewPath = "/Pages/Views/Status.cshtml";

    private StatusPage _model = null!;
    private WebApplication _mvc = null!;
    private PipeWriter _pipe = null!;

    [ParamsAllValues]
    public PageEngine Engine { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _model = Model(StatusPageSource.MvcEngine);
        var builder = WebApplication.CreateSlimBuilder();
        builder.Services.AddControllersWithViews().AddApplicationPart(typeof(StatusPage).Assembly);
        _mvc = builder.Build();
        _pipe = PipeWriter.Create(Stream.Null);

        var check = new MemoryStream();
        RenderAsync(check).GetAwaiter().GetResult();
        var html = Encoding.UTF8.GetString(check.ToArray());
        if (!html.StartsWith("<!DOCTYPE html>", StringComparison.Ordinal) || !html.Contains("&lt;script&gt;", StringComparison.Ordinal)
            || !html.Contains("""<tr data-fact="events.log"><th>events.log</th><td>7</td></tr>""", StringComparison.Ordinal))
        {
            throw new InvalidOperationException($"{Engine} did not render the page: {html[..Math.Min(html.Length, 400)]}");
        }
    }

    [GlobalCleanup]
    public void Cleanup() => _mvc.DisposeAsync().AsTask().GetAwaiter().GetResult();

    [Benchmark]
    public Task Render() => Engine == PageEngine.MvcViews ? RenderViewAsync(Stream.Null) : RenderSliceAsync(_pipe);

    private Task RenderAsync(Stream output) =>
        Engine == PageEngine.MvcViews ? RenderViewAsync(output) : RenderSliceAsync(PipeWriter.Create(output));

    private async Task RenderSliceAsync(PipeWriter output)
    {
        await Hosting.Pages.Slices.Status.Create(_model).RenderAsync(output, HtmlEncoder.Default);
        await output.FlushAsync();
    }

    // What MVC's ViewResultExecutor does per request, minus the action: find the view, make its context, render.
    private async Task RenderViewAsync(Stream output)
    {
        var services = _mvc.Services;
        var http = new DefaultHttpContext { RequestServices = services };
        var action = new ActionContext(http, new RouteData(), new ActionDescriptor());
        var view = services.GetRequiredService<ICompositeViewEngine>().GetView(null, ViewPath, isMainPage: true).EnsureSuccessful(null).View!;
        var data = new ViewDataDictionary<StatusPage>(services.GetRequiredService<IModelMetadataProvider>(), new ModelStateDictionary()) { Model = _model };
        var tempData = services.GetRequiredService<ITempDataDictionaryFactory>().GetTempData(http);
        await using var writer = new HttpResponseStreamWriter(output, Encoding.UTF8);
        await view.RenderAsync(new ViewContext(action, view, data, tempData, writer, new HtmlHelperOptions()));
        await writer.FlushAsync();
    }

    internal static StatusPage Model(string engine)
    {
        var configuration = new List<PageFact>();
        foreach (var (name, value) in new[]
        {
            ("role", "BackEnd"), ("api", "Minimal"), ("transport", "Sockets"), ("serializer", "SystemTextJsonSourceGen"), ("gc", "Workstation"),
            ("concurrent", "on"), ("datas", "off"), ("heaps", "1"), ("aot", "no"), ("runtime", ".NET-10.0.12"), ("pid", "4242"),
            ("sinks", "job:Null,metric:Null,log:Null"), ("faults", "none"), ("metrics", "/metrics"),
        })
        {
            configuration.Add(new PageFact(name, value));
        }

        var events = new List<PageEvent>();
        for (var i = 0; i < 20; i++)
        {
            events.Add(i % 4 == 0
                ? new PageEvent("log", "<script>api</script>", "2026-11-22T10:00:00.0000000Z", "warn: request " + i.ToString(CultureInfo.InvariantCulture) + " took longer than expected")
                : new PageEvent("job", "builder-" + i.ToString(CultureInfo.InvariantCulture), "2026-11-22T10:00:00.0000000Z", "job-" + i.ToString(CultureInfo.InvariantCulture) + " Success: process exited with code 0."));
        }

        return new StatusPage
        {
            Title = "Ingest back-end",
            Engine = engine,
            Configuration = configuration,
            Counters = [new("requests", "123456"), new("errors.400", "12"), new("events.job", "15"), new("events.metric", "0"), new("events.log", "7"), new("persisted.null", "22")],
            RecentEvents = events,
        };
    }
}

/// <summary>
/// What the back-end's last-events ring costs a request: one event recorded, with the ring off (capacity 0, the
/// request pays a length check) and at the default capacity of 20.
/// </summary>
[BenchmarkCategory(Categories.Pages)]
public class RecentEventsBenchmarks
{
    private Core.Sinks.RecentEvents _ring = null!;
    private List<Core.Events.IngestEvent> _events = null!;

    [Params(0, 20)]
    public int Capacity { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _ring = new Core.Sinks.RecentEvents(Capacity);
        _events = [new Core.Events.IngestEvent { Type = Core.Events.EventType.Log, Source = "api", Level = "warn", Message = "m" }];
        _ring.Record(_events);
        if (_ring.Snapshot().Length != Math.Min(Capacity, 1))
        {
            throw new InvalidOperationException("The ring did not keep the event.");
        }
    }

    [Benchmark]
    public void Record() => _ring.Record(_events);
}
