#!/usr/bin/env bash
# Where a Go baseline's CPU and allocations go per request, as benchmarks/profile-front-end.sh does for .NET: the classic
# payload at 50 connections through a Go front-end (net/http or fasthttp) and the Go net/http back-end, 5 s of warm-up,
# then 14 s measured while Go's own profiler (INGEST_GO_PPROF, off unless set) records a CPU profile of each process.
# Prints per process: CPU µs per request, context switches per request (perf stat, when installed), bytes and objects
# allocated per request and collections per second (runtime MemStats), and the CPU split into stages (parse and
# validate, forward body, forward client, HTTP server, GC, allocation, scheduler) with the share spent in system calls.
#   benchmarks/profile-go.sh [nethttp|fasthttp] [VAR=value ...]       e.g.  benchmarks/profile-go.sh nethttp GOGC=400
# Builds the Go baselines if bin/ lacks them (GO_BIN=folder profiles binaries from elsewhere, e.g. an older build);
# needs the lab's published load generator (run the lab first). Loopback only; every process it starts is stopped.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
flavour=${1:-nethttp}
shift || true
bin=${GO_BIN:-$root/src/baselines/go/bin}
case "$flavour" in
    nethttp) front=("$bin/ingest-go" -role frontend) ;;
    fasthttp) front=("$bin/ingest-go-fasthttp") ;;
    *) echo "usage: $0 [nethttp|fasthttp] [VAR=value ...]" >&2; exit 2 ;;
esac
loadgen="$root/artifacts/lab/Ingest.LoadGen/Ingest.LoadGen"
[ -x "$loadgen" ] || { echo "missing $loadgen: run the lab first (dotnet run -c Release --project benchmarks/Ingest.Lab)" >&2; exit 3; }
[ -x "${front[0]}" ] && [ -x "$bin/ingest-go" ] || bash "$root/src/baselines/go/build.sh" > /dev/null
command -v go > /dev/null || { echo "go is needed to read the profiles (apt-get install golang-go)" >&2; exit 3; }

work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
be_port=$(port); fe_port=$(port); be_prof=$(port); fe_prof=$(port)
printf '%s' "{\"data\": \"{'job_id':'c4bb6d130003','container_id':'ab7b85dcac72','status':'Success: process exited with code 0.'}\"}" > "$work/classic.json"

env INGEST_GO_PPROF="127.0.0.1:$be_prof" "$@" "$bin/ingest-go" -role backend -listen "127.0.0.1:$be_port" > "$work/back-end.log" 2>&1 &
be=$!
pids+=("$be")
env INGEST_GO_PPROF="127.0.0.1:$fe_prof" "$@" "${front[@]}" -listen "127.0.0.1:$fe_port" -backends "http://127.0.0.1:$be_port" > "$work/front-end.log" 2>&1 &
fe=$!
pids+=("$fe")
for _ in $(seq 1 100); do grep -q "Application started" "$work/front-end.log" 2>/dev/null && grep -q "Application started" "$work/back-end.log" 2>/dev/null && break; sleep 0.1; done

memstats() { curl -s "http://127.0.0.1:$1/debug/pprof/allocs?debug=1" | grep -E '^# (TotalAlloc|Mallocs|NumGC|PauseNs) = ' | sed 's/^# //'; }
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
"$loadgen" --url "http://127.0.0.1:$fe_port/ingest/event" --body "$work/classic.json" -c 50 -d 15s --warmup 5s --json "$work/load.json" > /dev/null &
load=$!
sleep 5.5
for p in fe be; do
    eval "memstats \$${p}_prof > $work/$p-before.txt; cpu \$$p > $work/$p-cpu-before.txt"
done
curl -s -o "$work/fe.pprof" "http://127.0.0.1:$fe_prof/debug/pprof/profile?seconds=14" &
profilers=($!)
curl -s -o "$work/be.pprof" "http://127.0.0.1:$be_prof/debug/pprof/profile?seconds=14" &
profilers+=($!)
if command -v perf > /dev/null && perf stat -e context-switches -p "$fe" -o "$work/fe-perf.txt" -- sleep 0.1 > /dev/null 2>&1; then
    perf stat -e context-switches,task-clock -p "$fe" -o "$work/fe-perf.txt" -- sleep 14 > /dev/null 2>&1 &
    profilers+=($!)
    perf stat -e context-switches,task-clock -p "$be" -o "$work/be-perf.txt" -- sleep 14 > /dev/null 2>&1 &
    profilers+=($!)
fi
sleep 14
for p in fe be; do
    eval "memstats \$${p}_prof > $work/$p-after.txt; cpu \$$p > $work/$p-cpu-after.txt"
done
wait "$load" "${profilers[@]}"
peak() { awk '/^VmHWM:/ {printf "%d MB", $2 / 1024}' "/proc/$1/status"; }
rps=$(python3 -c "import json,sys; print(round(json.load(open(sys.argv[1]))['requestsPerSecond']))" "$work/load.json")
echo "Go $flavour${*:+ ($*)}: $rps requests/s at 50 connections (15 s after 5 s of warm-up); peak RSS front-end $(peak "$fe"), back-end $(peak "$be"); per request over the 14 s profiled:"
for p in fe be; do
    binary="$bin/ingest-go"; name=back-end
    [ "$p" = fe ] && binary="${front[0]}" && name=front-end
    go tool pprof -traces "$binary" "$work/$p.pprof" 2> /dev/null > "$work/$p-traces.txt" || true
    python3 "$root/benchmarks/profile-go.py" "$name" "$rps" 14 "$work/$p-cpu-before.txt" "$work/$p-cpu-after.txt" \
        "$work/$p-before.txt" "$work/$p-after.txt" "$work/$p-perf.txt" "$work/$p-traces.txt"
done
