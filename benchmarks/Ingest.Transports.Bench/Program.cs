using System.Runtime;
using Ingest.Transports;
using Ingest.Transports.Bench;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;

// The slim builder: Kestrel without HTTPS or HTTP/3, configuration from the command line and environment.
var builder = WebApplication.CreateSlimBuilder(args);
builder.WebHost.UseIngestTransport(builder.Configuration);
builder.Logging.ClearProviders().AddConsole().SetMinimumLevel(LogLevel.Warning);

var app = builder.Build();
app.Run(MicroEndpoints.HandleAsync);
await app.StartAsync();

// measure.sh waits for the last of these lines and reads the bound address from the one before it.
var addresses = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses;
Console.WriteLine($"Transport: {app.Services.GetRequiredService<TransportInfo>().Description}");
Console.WriteLine($"GC: {(GCSettings.IsServerGC ? "Server" : "Workstation")}, concurrent={AppContext.GetData("System.GC.Concurrent") ?? "default"}, latency mode {GCSettings.LatencyMode}");
Console.WriteLine($"Listening on: {string.Join(' ', addresses)}");
Console.WriteLine("Application started.");
await app.WaitForShutdownAsync();
