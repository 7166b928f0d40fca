#!/usr/bin/env bash
# Where a front-end's resident memory goes: its smaps_rollup (anonymous vs file-backed pages) idle, after one
# request, and after 15 s of the classic payload at 50 connections, plus the GC's own figures from /metrics.
#   benchmarks/memory-probe.sh [jit|aot] [VAR=value ...]     e.g.  benchmarks/memory-probe.sh aot DOTNET_GCgen0size=100000
# Uses the services the lab published into artifacts/lab/ (run the lab first; `--set aot` for the Native AOT build).
# Loopback only; every process it starts is stopped when it ends.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
artifacts="$root/artifacts/lab"
flavour=${1:-jit}
shift || true
case "$flavour" in
    jit) front=(dotnet "$artifacts/Ingest.FrontEnd/Ingest.FrontEnd.dll") ;;
    aot) front=("$artifacts/Ingest.FrontEnd-PublishAot_true-RuntimeIdentifier_linux-x64/Ingest.FrontEnd") ;;
    *) echo "usage: $0 [jit|aot] [VAR=value ...]" >&2; exit 2 ;;
esac
hint=""
[ "$flavour" = aot ] && hint=" -- --set aot"
for needed in "$artifacts/Ingest.BackEnd/Ingest.BackEnd.dll" "$artifacts/Ingest.LoadGen/Ingest.LoadGen" "${front[-1]}"; do
    [ -e "$needed" ] || { echo "missing $needed: run the lab first (dotnet run -c Release --project benchmarks/Ingest.Lab$hint)" >&2; exit 3; }
done

work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
be_port=$(port); fe_port=$(port)
printf '%s' "{\"data\": \"{'job_id':'c4bb6d130003','container_id':'ab7b85dcac72','status':'Success: process exited with code 0.'}\"}" > "$work/classic.json"

dotnet "$artifacts/Ingest.BackEnd/Ingest.BackEnd.dll" --urls "http://127.0.0.1:$be_port" --Sinks:Default Null > "$work/back-end.log" 2>&1 &
pids+=($!)
env "$@" "${front[@]}" --urls "http://127.0.0.1:$fe_port" --Forwarding:BackEnds:0 "http://127.0.0.1:$be_port" > "$work/front-end.log" 2>&1 &
fe=$!
pids+=("$fe")
for _ in $(seq 1 100); do grep -q "Application started" "$work/front-end.log" 2>/dev/null && grep -q "Application started" "$work/back-end.log" 2>/dev/null && break; sleep 0.2; done

rollup() { awk '/^Rss:|^Anonymous:|^Pss_File:/ {printf "%s %d MB  ", $1, $2 / 1024}' "/proc/$fe/smaps_rollup"; echo; }
echo "front-end ($flavour${*:+, $*})"
echo "  idle:           $(rollup)"
curl -s -o /dev/null -X POST -H 'Content-Type: application/json' --data-binary @"$work/classic.json" "http://127.0.0.1:$fe_port/ingest/event"
echo "  after 1 request: $(rollup)"
"$artifacts/Ingest.LoadGen/Ingest.LoadGen" --url "http://127.0.0.1:$fe_port/ingest/event" --body "$work/classic.json" \
    -c 50 -d 15s --warmup 0 --json "$work/load.json" > /dev/null
rps=$(python3 -c "import json,sys; print(round(json.load(open(sys.argv[1]))['requestsPerSecond']))" "$work/load.json")
echo "  after 15 s load: $(rollup) ($rps requests/s)"
curl -s "http://127.0.0.1:$fe_port/metrics" \
    | grep -E '^dotnet_gc_(last_collection_memory_committed_size_bytes|heap_total_allocated_bytes_total) ' \
    | awk '{printf "  %s %.1f MB\n", $1, $2 / 1048576}'
