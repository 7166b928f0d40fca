#!/usr/bin/env bash
# Builds every application a Crank job uploads into artifacts/crank/ (git-ignored): the services and the load
# generator (framework-dependent, Release), the load generator's payloads, the Go and Rust baselines, and with --aot
# the builds the aot-* scenarios start: the Native AOT services and the trimmed, self-contained JIT ones. Agents then run them with an absolute path to dotnet: no SDK work on the agent.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/artifacts/crank"
mkdir -p "$out"
for app in Ingest.BackEnd Ingest.FrontEnd Ingest.LoadGen; do
    dotnet publish "$root/src/$app/$app.csproj" -c Release -o "$out/$app" --nologo -v quiet
done
dotnet run -c Release --project "$root/benchmarks/Ingest.Lab" -- payloads "$out/Ingest.LoadGen/payloads"
if [ "${1:-}" = "--aot" ]; then
    for app in Ingest.BackEnd Ingest.FrontEnd; do
        dotnet publish "$root/src/$app/$app.csproj" -c Release -r linux-x64 -p:PublishAot=true -o "$out/$app-aot" --nologo -v quiet
        dotnet publish "$root/src/$app/$app.csproj" -c Release -r linux-x64 --self-contained -p:PublishTrimmed=true -o "$out/$app-trimmed" --nologo -v quiet
    done
fi
for baseline in go rust; do
    if bash "$root/src/baselines/$baseline/build.sh"; then
        mkdir -p "$out/$baseline" && cp "$root/src/baselines/$baseline/bin/"* "$out/$baseline/"
    else
        echo "The $baseline baselines could not be built: their scenarios will not run."
    fi
done
echo "Published into $out"
