using Ingest.Hosting;

// Content root = the app's own folder, so its appsettings.json is found whatever the working directory.
var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions { Args = args, ContentRootPath = AppContext.BaseDirectory });
builder.AddIngestHost(ServiceRole.FrontEnd);   // options, serializer, Kestrel limits, start-up line
builder.AddIngestForwarding();                 // client strategy, protocol, per-event or batched forwarding
builder.AddIngestMetrics();                    // the Ingest meter and the Prometheus listener

var app = builder.Build();
app.UseIngestMetrics();                        // GET /metrics (on Metrics:Port when set)
app.MapIngestApi();                            // the contract, in the configured API style
app.Run();
