using Ingest.LoadGen.Tests;

// Serve mode for the wrk comparison: a plaintext Kestrel app outside the test runner.
//   dotnet Ingest.LoadGen.Tests.dll serve [http://127.0.0.1:5000]
if (args.Length > 0 && args[0] == "serve")
{
    await PlaintextServer.RunAsync(args.Length > 1 ? args[1] : "http://127.0.0.1:5000");
    return 0;
}

await Console.Error.WriteLineAsync("This assembly holds tests (run `dotnet test`); `serve [url]` starts the plaintext server.");
return 2;
