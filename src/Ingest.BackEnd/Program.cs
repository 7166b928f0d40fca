using Ingest.Hosting;

// Content root = the app's own folder, so its appsettings.json is found whatever the working directory.
var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions { Args = args, ContentRootPath = AppContext.BaseDirectory });
builder.AddIngestHost(ServiceRole.BackEnd);    // options, serializer, Kestrel limits, start-up line
builder.AddIngestSinks();                      // a sink per event type, and the counts behind /ingest/stats

var app = builder.Build();
app.MapIngestApi();                            // the contract, in the configured API style
app.Run();
