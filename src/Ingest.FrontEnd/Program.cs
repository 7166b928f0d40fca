using Ingest.Hosting;

// Content root = the app's own folder, so its appsettings.json is found whatever the working directory.
var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions { Args = args, ContentRootPath = AppContext.BaseDirectory });
builder.AddIngestHost(ServiceRole.FrontEnd);   // options, serializer, Kestrel limits, start-up line
builder.AddIngestForwarding();                 // client strategy, protocol, per-event or batched forwarding

var app = builder.Build();
app.MapIngestApi();                            // the contract, in the configured API style
app.Run();
