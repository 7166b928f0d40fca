#!/usr/bin/env bash
# Runs one scenario of crank/ingest.benchmarks.yml on a local Crank agent bound to loopback, writes the JSON
# results into crank/results/ (git-ignored), and stops the agent.
#   crank/run-local.sh <scenario> [extra crank arguments]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
scenario=${1:?usage: crank/run-local.sh <scenario> [crank arguments]}
shift

# The Crank tools target net8.0 and this machine has only .NET 10: let them roll forward.
export DOTNET_ROLL_FORWARD=Major
if ! command -v crank >/dev/null || ! command -v crank-agent >/dev/null; then
    cat >&2 <<MSG
crank and crank-agent are not installed, and this machine's package mirror does not have them
(Microsoft.Crank.Controller / Microsoft.Crank.Agent: see docs/dependencies.md). On a machine that has them:
    dotnet tool install -g Microsoft.Crank.Controller --version 0.2.0-alpha.26316.1
    dotnet tool install -g Microsoft.Crank.Agent --version 0.2.0-alpha.26316.1
The configuration itself is checked offline by: dotnet run --project benchmarks/Ingest.Lab -- crank --check
MSG
    exit 3
fi

bash "$root/crank/publish.sh"
build=$(mktemp -d)
crank-agent --url http://127.0.0.1:5010 --hostname localhost --build-path "$build" > "$build/agent.log" 2>&1 &
agent=$!
trap 'kill $agent 2>/dev/null; wait $agent 2>/dev/null; rm -rf "$build"' EXIT INT TERM
for _ in $(seq 1 100); do grep -q "Agent ready" "$build/agent.log" && break; sleep 0.2; done

mkdir -p "$root/crank/results"
result="$root/crank/results/$scenario-$(date -u +%Y%m%d-%H%M%S).json"
crank --config "$root/crank/ingest.benchmarks.yml" --scenario "$scenario" --profile local \
    --application.selfContained false --json "$result" "$@"
echo "Results: $result"
