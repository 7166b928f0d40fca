using Ingest.LoadGen.Cli;

return await LoadGenCommand.RunAsync(args, Console.Out, Console.Error);
