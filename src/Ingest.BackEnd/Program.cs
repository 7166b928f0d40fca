using Ingest.Hosting;
using Ingest.Storage;

// Content root = the app's own folder, so its appsettings.json is found whatever the working directory.
var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions { Args = args, ContentRootPath = AppContext.BaseDirectory });
builder.AddIngestHost(ServiceRole.BackEnd);    // options, serializer, Kestrel limits, start-up line
builder.AddIngestSinks();                      // a sink per event type, and the counts behind /ingest/stats
builder.AddIngestStorage();                    // the stores: PostgreSQL, Redis, NDJSON files (Ingest.Storage)
builder.AddIngestMetrics();                    // the Ingest meter and the Prometheus listener

var app = builder.Build();
app.UseIngestMetrics();                        // GET /metrics (on Metrics:Port when set)
app.MapIngestApi();                            // the contract, in the configured API style
app.Run();
