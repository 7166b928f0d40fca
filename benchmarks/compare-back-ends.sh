#!/usr/bin/env bash
# Two builds of the back-end measured at the same time on the very same events: one JIT front-end lists both in
# Forwarding:BackEnds, and the front-end sends every event to each back-end it lists. The host's drift (a shared VM's
# CPU a request moves within minutes) then falls on both alike, and their ratio keeps what the builds change.
# Each round: the classic payload at 50 connections (CONNECTIONS=N for another count), 10 s of warm-up (WARMUP=s),
# then both back-ends' CPU (utime + stime from /proc) over the same 14 s (MEASURE=s), as CPU µs a request, and B over
# A. Rounds alternate which back-end the front-end lists (and starts) first; a round with a failed request, or with a
# back-end that used no CPU (it got no events), is left out; the last line is the median of B/A with its spread.
# Made for the inline path (IoUring or LinuxEpoll with the application inline, the front-end's own client: there a
# build against itself comes out close to 1); on the thread-pool path (Sockets, HttpClient) each back-end's CPU a
# request swings with how often its threads sleep and wake at these rates (a build against itself too), so a ratio
# there says little about the builds. What it measured, and its spread against itself:
# docs/notebook/native-aot.md#native-aot-against-the-jit-two-back-ends-at-once-2026-11-27-evening.
#   benchmarks/compare-back-ends.sh A B [rounds] [-- service arguments]
#   A, B: jit | aot | trimmed (the lab's builds in artifacts/lab/) or a publish folder; A_ENV / B_ENV: VAR=value ...
#   e.g.  benchmarks/compare-back-ends.sh jit aot 4 -- --Kestrel:Transport IoUring
#           --Kestrel:IoUring:ApplicationSchedulingMode Inline --Forwarding:ClientStrategy LoopDirect
#         B_ENV=DOTNET_TieredPGO=0 benchmarks/compare-back-ends.sh jit jit 4 -- <the same>
#   (the service arguments go to the front-end and both back-ends; a back-end ignores the Forwarding keys)
# Uses the services the lab published (run the lab first; `--set aot` for the Native AOT and trimmed builds).
# Loopback only; every load is bounded (warm-up + measured + 1 s) and every process it starts is stopped when it ends.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
artifacts="$root/artifacts/lab"
usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 2 ] || usage
a_build=$1 b_build=$2
shift 2
rounds=4
if [ $# -gt 0 ] && [ "$1" != "--" ]; then rounds=$1; shift; fi
[ "${1:-}" = "--" ] && shift
service_args=("$@")
warmup=${WARMUP:-10}
measure=${MEASURE:-14}

# The command that starts a build of the back-end: the lab's folder for jit/aot/trimmed, or a publish folder. A
# framework-dependent build runs on the dotnet host; a self-contained or Native AOT one is its own executable.
command_for() {
    local folder
    case "$1" in
        jit) folder="$artifacts/Ingest.BackEnd" ;;
        aot) folder="$artifacts/Ingest.BackEnd-PublishAot_true-RuntimeIdentifier_linux-x64" ;;
        trimmed) folder="$artifacts/Ingest.BackEnd-PublishTrimmed_true-RuntimeIdentifier_linux-x64-SelfContained_true" ;;
        *) folder=$1 ;;
    esac
    if [ -e "$folder/Ingest.BackEnd.dll" ] && ! grep -q includedFrameworks "$folder/Ingest.BackEnd.runtimeconfig.json" 2>/dev/null; then
        echo "dotnet $folder/Ingest.BackEnd.dll"
    elif [ -x "$folder/Ingest.BackEnd" ]; then
        echo "$folder/Ingest.BackEnd"
    else
        echo "missing $folder/Ingest.BackEnd: run the lab first (dotnet run -c Release --project benchmarks/Ingest.Lab -- --set aot)" >&2
        return 3
    fi
}
a_command=$(command_for "$a_build")
b_command=$(command_for "$b_build")
declare -A command=([a]="$a_command" [b]="$b_command") environment=([a]="${A_ENV:-}" [b]="${B_ENV:-}")
for needed in "$artifacts/Ingest.FrontEnd/Ingest.FrontEnd.dll" "$artifacts/Ingest.LoadGen/Ingest.LoadGen"; do
    [ -e "$needed" ] || { echo "missing $needed: run the lab first (dotnet run -c Release --project benchmarks/Ingest.Lab)" >&2; exit 3; }
done

work=$(mktemp -d)
pids=()
stop() { [ ${#pids[@]} -eq 0 ] || { kill "${pids[@]}" 2>/dev/null || true; wait "${pids[@]}" 2>/dev/null || true; }; pids=(); }
trap 'stop; rm -rf "$work"' EXIT
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
printf '%s' "{\"data\": \"{'job_id':'c4bb6d130003','container_id':'ab7b85dcac72','status':'Success: process exited with code 0.'}\"}" > "$work/classic.json"
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
ready() {
    for _ in $(seq 1 150); do
        [ "$(grep -l "Application started" "$work/a.log" "$work/b.log" "$work/front.log" 2>/dev/null | wc -l)" = 3 ] && return 0
        sleep 0.2
    done
    echo "a service did not start:" >&2
    tail -n 5 "$work/a.log" "$work/b.log" "$work/front.log" >&2
    return 1
}

echo "back-ends: A = $a_build${A_ENV:+ ($A_ENV)}, B = $b_build${B_ENV:+ ($B_ENV)}${service_args[*]:+; ${service_args[*]}}; $rounds rounds, $warmup s warm-up, $measure s measured"
ratios=()
for round in $(seq 1 "$rounds"); do
    # Odd rounds list A first, even rounds B first.
    if [ $((round % 2)) = 1 ]; then order=(a b); else order=(b a); fi
    declare -A pid=() portof=()
    for side in "${order[@]}"; do
        portof[$side]=$(port)
        # shellcheck disable=SC2086 # the environment and the command are word lists
        env ${environment[$side]} ${command[$side]} --urls "http://127.0.0.1:${portof[$side]}" --Sinks:Default Null "${service_args[@]}" > "$work/$side.log" 2>&1 &
        pid[$side]=$!
        pids+=("$!")
    done
    fe_port=$(port)
    dotnet "$artifacts/Ingest.FrontEnd/Ingest.FrontEnd.dll" --urls "http://127.0.0.1:$fe_port" \
        --Forwarding:BackEnds:0 "http://127.0.0.1:${portof[${order[0]}]}" --Forwarding:BackEnds:1 "http://127.0.0.1:${portof[${order[1]}]}" \
        "${service_args[@]}" > "$work/front.log" 2>&1 &
    pids+=("$!")
    ready
    "$artifacts/Ingest.LoadGen/Ingest.LoadGen" --url "http://127.0.0.1:$fe_port/ingest/event" --body "$work/classic.json" \
        -c "${CONNECTIONS:-50}" -d "$((measure + 1))s" --warmup "${warmup}s" --json "$work/load.json" > /dev/null &
    load=$!
    sleep "$warmup.5"
    a0=$(cpu "${pid[a]}"); b0=$(cpu "${pid[b]}")
    sleep "$measure"
    a1=$(cpu "${pid[a]}"); b1=$(cpu "${pid[b]}")
    wait "$load"
    stop
    ratio=$(python3 - "$work/load.json" "$((a1 - a0))" "$((b1 - b0))" "$(getconf CLK_TCK)" "$round" "$measure" <<'EOF'
import json, sys
load = json.load(open(sys.argv[1]))
a_ticks, b_ticks, hz, round_, seconds = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], int(sys.argv[6])
rps, failed = load["requestsPerSecond"], load["requests"] - load["successfulResponses"]
# Both back-ends took every acknowledged event: CPU µs a request over the seconds both were sampled.
a_us, b_us = a_ticks / hz * 1e6 / (rps * seconds), b_ticks / hz * 1e6 / (rps * seconds)
why = f"{failed} requests failed" if failed else "a back-end used no CPU" if min(a_us, b_us) == 0 else None
print("failed" if why else f"{b_us / a_us:.3f}")
print(f"  round {round_}: {rps:,.0f} requests/s; A {a_us:.1f} µs, B {b_us:.1f} µs a request; "
      + (f"{why}: round left out" if why else f"B/A {b_us / a_us:.3f}"), file=sys.stderr)
EOF
    )
    [ "$ratio" = failed ] || ratios+=("$ratio")
done 2>&1
[ ${#ratios[@]} -gt 0 ] || { echo "no round completed" >&2; exit 1; }
python3 -c "
import statistics, sys
r = sorted(float(x) for x in sys.argv[1:])
print(f'B/A CPU a request: median {statistics.median(r):.3f} over {len(r)} rounds ({r[0]:.3f}-{r[-1]:.3f})')" "${ratios[@]}"
