using System.Runtime.InteropServices;
using Ingest.Pgo;

// Ingest.Pgo <profile.txt> --out <file.mibc> [--assemblies <folder>]... [--verbose], or Ingest.Pgo layout ...: --help lists all.
// The profile is what a JIT-run service wrote at exit with DOTNET_WritePGOData=1 DOTNET_PGODataPath=<profile.txt>;
// the folders are the service's own (its publish folder), searched before the shared frameworks this tool runs on.
return PgoCommand.Run(args, Console.Out, RuntimeEnvironment.GetRuntimeDirectory());
