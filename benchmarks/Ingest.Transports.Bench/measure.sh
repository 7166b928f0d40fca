#!/usr/bin/env bash
# Every transport side by side, with wrk on loopback: plaintext pipelined x16 and /json, 256 connections each.
# Rounds are interleaved (the variant order rotates every round) so a burst of load from other processes on
# the machine hits all variants alike; the load average is recorded next to every figure.
#
# Usage: benchmarks/Ingest.Transports.Bench/measure.sh [seconds per run, 10] [rounds, 3] [output dir, results/transports]
# Needs: wrk (apt-get install wrk). Writes raw.tsv and summary.md to the output directory (ignored by git).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
seconds="${1:-10}"
rounds="${2:-3}"
out="${3:-$here/../../results/transports}"
connections=256
wrk_threads=2
# Long enough for tiered compilation to reach tier 1 on a loaded two-core machine (a profile after 4 s of
# load still showed 18% of the server in the JIT).
warmup=5
ticks=$(getconf CLK_TCK)

# name | server arguments | environment
variants=(
  "Sockets|--Kestrel:Transport=Sockets|"
  "Sockets+Inline|--Kestrel:Transport=Sockets --Kestrel:Sockets:UnsafePreferInlineScheduling=true|DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1"
  "LinuxEpoll|--Kestrel:Transport=LinuxEpoll|"
  "LinuxEpoll+DirectSend|--Kestrel:Transport=LinuxEpoll --Kestrel:LinuxEpoll:DeferSend=false|"
  "LinuxEpoll+AIO|--Kestrel:Transport=LinuxEpoll --Kestrel:LinuxEpoll:AioReceive=true --Kestrel:LinuxEpoll:AioSend=true|"
  "LinuxEpoll+Inline|--Kestrel:Transport=LinuxEpoll --Kestrel:LinuxEpoll:ApplicationSchedulingMode=Inline|"
  "IoUring|--Kestrel:Transport=IoUring|"
  "IoUring+Inline|--Kestrel:Transport=IoUring --Kestrel:IoUring:ApplicationSchedulingMode=Inline|"
  "Libuv|--Kestrel:Transport=Libuv|"
)

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
mkdir -p "$out"
dotnet build -c Release "$here" -nologo -v quiet >/dev/null
app="$here/bin/Release/net10.0/Ingest.Transports.Bench"
raw="$out/raw.tsv"
printf 'round\tvariant\tscenario\trps\tserver_cpu_cores\trss_mib\tpeak_rss_mib\tload1\n' > "$raw"

server_pid=""
stop_server() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$server_pid" 2>/dev/null || true
  fi
  server_pid=""
}
trap stop_server EXIT

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
status_mib() { awk -v key="$2:" '$1 == key { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }

run_wrk() { # url extra-args... ; prints requests/sec
  wrk -t "$wrk_threads" -c "$connections" -d "${seconds}s" --latency "$@" | awk '/^Requests\/sec:/ { print $2 }'
}

echo "machine: $(nproc) cores, $(uname -r), load: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$rounds"); do
  count=${#variants[@]}
  for i in $(seq 0 $((count - 1))); do
    entry="${variants[$(( (i + round - 1) % count ))]}"
    IFS='|' read -r name arguments environment <<< "$entry"
    log="$out/server-$round-${name//+/_}.log"
    # shellcheck disable=SC2086
    env $environment "$app" --urls http://127.0.0.1:0 $arguments > "$log" 2>&1 &
    server_pid=$!
    for _ in $(seq 300); do grep -qs '^Application started.' "$log" && break; sleep 0.1; done
    grep -q '^Application started.' "$log" || { echo "$name did not start:" >&2; cat "$log" >&2; exit 1; }
    url=$(awk '/^Listening on:/ { print $3 }' "$log")

    wrk -t "$wrk_threads" -c "$connections" -d "${warmup}s" "$url/json" > /dev/null
    wrk -t "$wrk_threads" -c "$connections" -d "${warmup}s" -s "$here/pipeline.lua" "$url/plaintext" -- 16 > /dev/null

    for scenario in plaintext json; do
      load=$(cut -d' ' -f1 /proc/loadavg)
      before=$(cpu_ticks "$server_pid")
      if [[ $scenario == plaintext ]]; then
        rps=$(run_wrk -s "$here/pipeline.lua" "$url/plaintext" -- 16)
      else
        rps=$(run_wrk "$url/json")
      fi
      after=$(cpu_ticks "$server_pid")
      cores=$(awk -v t=$((after - before)) -v hz="$ticks" -v s="$seconds" 'BEGIN { printf "%.2f", t / hz / s }')
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$name" "$scenario" "$rps" "$cores" \
        "$(status_mib "$server_pid" VmRSS)" "$(status_mib "$server_pid" VmHWM)" "$load" | tee -a "$raw"
    done
    stop_server
  done
done

# Median (min-max) per variant and scenario.
stats() { sort -n | awk '{ v[NR] = $1 } END { printf "%s %s %s", v[int((NR + 1) / 2)], v[1], v[NR] }'; }
column() { awk -F'\t' -v n="$1" -v s="$2" -v c="$3" '$2 == n && $3 == s { print $c }' "$raw"; }
{
  echo "| transport | plaintext ×16 RPS median (min–max) | CPU cores | CPU µs/req | /json RPS median (min–max) | CPU cores | CPU µs/req | peak RSS MiB |"
  echo "|---|---|---|---|---|---|---|---|"
  for entry in "${variants[@]}"; do
    name="${entry%%|*}"
    row="| $name |"
    for scenario in plaintext json; do
      read -r median low high <<< "$(column "$name" "$scenario" 4 | stats)"
      read -r cpu _ _ <<< "$(column "$name" "$scenario" 5 | stats)"
      # Server CPU time per request: less sensitive to other processes' load than the request rate.
      read -r per_request _ _ <<< "$(awk -F'\t' -v n="$name" -v s="$scenario" '$2 == n && $3 == s { printf "%.1f\n", $5 * 1000000 / $4 }' "$raw" | stats)"
      row+=$(printf ' %.0f (%.0f–%.0f) | %s | %s |' "$median" "$low" "$high" "$cpu" "$per_request")
    done
    row+=" $(awk -F'\t' -v n="$name" '$2 == n { print $7 }' "$raw" | sort -n | tail -1) |"
    echo "$row"
  done
} | tee "$out/summary.md"
