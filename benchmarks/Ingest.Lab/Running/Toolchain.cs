using System.Diagnostics;
using Ingest.Lab.Catalogue;
using Ingest.Lab.Processes;

namespace Ingest.Lab.Running;

/// <summary>
/// Installs the Debian packages the chosen scenarios need (through the repository's shared installer,
/// tests/lib/debian.sh) and says plainly what it could not install; the scenarios that need a missing tool are
/// then skipped with that reason, the others still run.
/// </summary>
internal static class Toolchain
{
    /// <summary>What src/baselines/rust/build.sh builds with, offline: Debian's Rust toolchain and packaged crates.</summary>
    public static readonly IReadOnlyList<string> RustPackages =
        ["cargo", "rustc", "librust-hyper-dev", "librust-tokio-dev", "librust-serde-dev", "librust-serde-derive-dev", "librust-serde-json-dev"];

    public static IReadOnlyList<string> PackagesFor(IEnumerable<Scenario> scenarios, bool prometheus = false)
    {
        // wrk always: the cross-check (--wrk) and users comparing by hand both need it.
        var packages = new SortedSet<string>(StringComparer.Ordinal) { "wrk" };
        if (prometheus)
        {
            packages.Add("prometheus");
        }

        foreach (var scenario in scenarios)
        {
            foreach (var service in new[] { scenario.FrontEnd, scenario.BackEnd })
            {
                switch (service)
                {
                    case { Implementation: Implementation.GoNetHttp }:
                        packages.Add("golang-go");
                        break;
                    case { Implementation: Implementation.GoFastHttp }:
                        packages.Add("golang-go");
                        packages.Add("golang-github-valyala-fasthttp-dev");
                        break;
                    case { Implementation: Implementation.RustHyper }:
                        packages.UnionWith(RustPackages);
                        break;
                    case { Implementation: Implementation.Nginx }:
                        packages.Add("nginx");
                        break;
                    case { NativeAot: true }:
                        packages.Add("clang");
                        packages.Add("zlib1g-dev");
                        break;
                }

                // The Libuv transport loads the system's libuv.so.1 (the runtime package; -dev is not needed).
                if (service is not null && service.Settings.TryGetValue("Kestrel:Transport", out var transport) && transport == "Libuv")
                {
                    packages.Add("libuv1");
                }
            }

            foreach (var store in scenario.Stores)
            {
                if (StoreServer.Package(store) is { } package)
                {
                    packages.Add(package);
                }
            }

            if (scenario.FrontDoor != FrontDoor.Direct)
            {
                packages.Add(scenario.FrontDoor == FrontDoor.Nginx ? "nginx" : "caddy");
            }
        }

        return [.. packages];
    }

    /// <summary>Runs the installer; returns null when everything is there, else what it said.</summary>
    public static async Task<string?> EnsureAsync(RepositoryLayout layout, IReadOnlyList<string> packages, TextWriter log, CancellationToken cancellationToken)
    {
        if (packages.Count == 0)
        {
            return null;
        }

        var installer = Path.Combine(layout.Root, "tests", "lib", "debian.sh");
        var start = new ProcessStartInfo("bash", ["-c", "source \"$0\" && ensure_debian_packages \"$@\"", installer, .. packages])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        using var process = Process.Start(start)!;
        var stdout = process.StandardOutput.ReadToEndAsync(cancellationToken);
        var stderr = process.StandardError.ReadToEndAsync(cancellationToken);
        await process.WaitForExitAsync(cancellationToken);
        var said = ((await stdout) + (await stderr)).Trim();
        if (said.Length > 0)
        {
            log.WriteLine("  " + said.Replace("\n", "\n  ", StringComparison.Ordinal));
        }

        return process.ExitCode == 0 ? null : said;
    }
}
