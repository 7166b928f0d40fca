#!/usr/bin/env bash
# Where a front-end's time and resident memory go under the classic payload at 50 connections (CONNECTIONS=N for
# another count, PERF=0 to leave perf out, FRONT_END=<publish folder> for another build; 10 s of warm-up,
# then 14 s measured):
#  - memory: its smaps_rollup (anonymous vs file-backed pages) idle, after one request and after the load, then
#    front-end's and back-end's resident memory accounted by what holds it (image, libraries, GC heap, stacks,
#    malloc, JIT code and runtime data), plus the runtime's own counters from /metrics (allocation, collections, GC pauses, JIT, thread-pool work items);
#  - time (when perf is installed): on-CPU samples of the front-end during the load, grouped by where they
#    landed (kernel, GC, JIT compiler, runtime, managed code by namespace) and the top functions.
#  - per process (front-end and back-end): CPU µs per request, the kernel's share of it, and context switches per
#    request (from /proc: utime/stime and voluntary + involuntary switches over the measured 14 s).
#   benchmarks/profile-front-end.sh [jit|aot] [VAR=value ...] [-- service arguments]
#   e.g.  benchmarks/profile-front-end.sh aot DOTNET_GCgen0size=100000
#         benchmarks/profile-front-end.sh jit -- --Kestrel:Transport LinuxEpoll --Kestrel:LinuxEpoll:ApplicationSchedulingMode Inline --Forwarding:ClientStrategy LoopDirect
#   (the service arguments go to both services; the back-end ignores the front-end's Forwarding keys)
# Uses the services the lab published into artifacts/lab/ (run the lab first; `--set aot` for the Native AOT build).
# Loopback only; every process it starts is stopped when it ends.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
artifacts="$root/artifacts/lab"
flavour=${1:-jit}
shift || true
environment=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do environment+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
service_args=("$@")
# FRONT_END=<folder> profiles a front-end published elsewhere (e.g. Native AOT with other publish properties).
case "$flavour" in
    jit) front=(dotnet "${FRONT_END:-$artifacts/Ingest.FrontEnd}/Ingest.FrontEnd.dll") ;;
    aot) front=("${FRONT_END:-$artifacts/Ingest.FrontEnd-PublishAot_true-RuntimeIdentifier_linux-x64}/Ingest.FrontEnd") ;;
    *) echo "usage: $0 [jit|aot] [VAR=value ...]" >&2; exit 2 ;;
esac
hint=""
[ "$flavour" = aot ] && hint=" -- --set aot"
for needed in "$artifacts/Ingest.BackEnd/Ingest.BackEnd.dll" "$artifacts/Ingest.LoadGen/Ingest.LoadGen" "${front[-1]}"; do
    [ -e "$needed" ] || { echo "missing $needed: run the lab first (dotnet run -c Release --project benchmarks/Ingest.Lab$hint)" >&2; exit 3; }
done

work=$(mktemp -d)
pids=()
fe=""
trap 'kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; rm -rf "$work" "/tmp/perf-$fe.map" "/tmp/perfinfo-$fe.map"' EXIT
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
be_port=$(port); fe_port=$(port)
printf '%s' "{\"data\": \"{'job_id':'c4bb6d130003','container_id':'ab7b85dcac72','status':'Success: process exited with code 0.'}\"}" > "$work/classic.json"

dotnet "$artifacts/Ingest.BackEnd/Ingest.BackEnd.dll" --urls "http://127.0.0.1:$be_port" --Sinks:Default Null "${service_args[@]}" > "$work/back-end.log" 2>&1 &
be=$!
pids+=("$be")
# The perf map names JIT-compiled code for perf; W^X off keeps that code in anonymous memory, where perf looks
# it up in the map (with W^X on it sits in a double-mapped file perf cannot name).
env DOTNET_PerfMapEnabled=1 DOTNET_EnableWriteXorExecute=0 "${environment[@]}" "${front[@]}" --urls "http://127.0.0.1:$fe_port" --Forwarding:BackEnds:0 "http://127.0.0.1:$be_port" "${service_args[@]}" > "$work/front-end.log" 2>&1 &
fe=$!
pids+=("$fe")
for _ in $(seq 1 100); do grep -q "Application started" "$work/front-end.log" 2>/dev/null && grep -q "Application started" "$work/back-end.log" 2>/dev/null && break; sleep 0.2; done

rollup() { awk '/^Rss:|^Anonymous:|^Pss_File:/ {printf "%s %d MB  ", $1, $2 / 1024}' "/proc/$fe/smaps_rollup"; echo; }
echo "front-end at ${CONNECTIONS:-50} connections ($flavour${environment[*]:+, ${environment[*]}}${service_args[*]:+, ${service_args[*]}})"
echo "  idle:           $(rollup)"
curl -s -o /dev/null -X POST -H 'Content-Type: application/json' --data-binary @"$work/classic.json" "http://127.0.0.1:$fe_port/ingest/event"
echo "  after 1 request: $(rollup)"
metrics() { curl -s "http://127.0.0.1:$fe_port/metrics" | grep -E '^dotnet_(gc_pause_time_seconds_total|gc_heap_total_allocated_bytes_total|jit_compilation_time_seconds_total|gc_collections_total\{gc_heap_generation="gen[0-2]"\}|thread_pool_work_item_count_total|gc_last_collection_memory_committed_size_bytes) '; }
# 10 s of warm-up (tiered compilation settles), then 14 s measured: memory, the runtime's own counters, and perf.
"$artifacts/Ingest.LoadGen/Ingest.LoadGen" --url "http://127.0.0.1:$fe_port/ingest/event" --body "$work/classic.json" \
    -c "${CONNECTIONS:-50}" -d 15s --warmup 10s --json "$work/load.json" > /dev/null &
load=$!
sleep 10.5
metrics > "$work/before.txt"
python3 "$root/benchmarks/profile-front-end.py" proc "$fe" "$be" > "$work/proc-before.json"
if [ "${PERF:-1}" != 0 ] && command -v perf > /dev/null; then
    perf record -F 999 -e cpu-clock -p "$fe" -o "$work/perf.data" -- sleep 14 > "$work/perf.log" 2>&1 || true
else
    sleep 14
fi
metrics > "$work/after.txt"
python3 "$root/benchmarks/profile-front-end.py" proc "$fe" "$be" > "$work/proc-after.json"
wait "$load"
rps=$(python3 -c "import json,sys; print(round(json.load(open(sys.argv[1]))['requestsPerSecond']))" "$work/load.json")
echo "  after the load: $(rollup) ($rps requests/s over 15 s after 10 s of warm-up)"
python3 "$root/benchmarks/profile-front-end.py" counters "$work/before.txt" "$work/after.txt" "$rps" 14
python3 "$root/benchmarks/profile-front-end.py" usage "$work/proc-before.json" "$work/proc-after.json" "$rps"
# Every MB accounted: what holds each process's resident memory after the load (the back-end runs on the JIT).
committed() { curl -s "http://127.0.0.1:$1/metrics" | awk '/^dotnet_gc_last_collection_memory_committed_size_bytes / {print $2 / 1048576}'; }
echo "  front-end:"
python3 "$root/benchmarks/profile-front-end.py" memory "$fe" $(committed "$fe_port")
echo "  back-end:"
python3 "$root/benchmarks/profile-front-end.py" memory "$be" $(committed "$be_port")
if [ -s "$work/perf.data" ]; then
    perf script -i "$work/perf.data" -F ip,sym,dso 2> /dev/null | python3 "$root/benchmarks/profile-front-end.py" samples
else
    echo "  (no time profile: perf is missing or could not attach; apt-get install linux-perf)"
fi
