#!/usr/bin/env bash
# Fuzzes the parsers that face the network with afl-fuzz (AFL++) through SharpFuzz; see docs/reliability.md#fuzzing.
#
#   bash tests/fuzz/run.sh <target|all> [--seconds N]     N seconds per target, 60 by default
#   bash tests/fuzz/run.sh list
#   bash tests/fuzz/run.sh http [--seconds N]             the HTTP-level fuzz of the running services (HttpFuzzTests),
#                                                        N seconds per transport, a new seed unless INGEST_HTTP_FUZZ_SEED
#
# Installs afl++ (Debian) when missing, publishes tests/fuzz/Ingest.Fuzz, instruments Ingest.Core, Ingest.LoadGen and
# Ingest.Wire with the SharpFuzz CLI (the local tool pinned in tests/fuzz/dotnet-tools.json), runs afl-fuzz on each target from
# its seed corpus (Seeds/<target>) for N seconds, prints each target's executions and coverage from AFL's
# fuzzer_stats, and replays every crash and hang on an uninstrumented build so its exception is printed.
# Findings stay in results/fuzz/<target>/ (ignored by git). Exits 1 when a target found a crash or a hang.
set -euo pipefail

# All in one function, called on the last line: bash then reads the whole file before running any of it, so editing
# the script during a long run cannot change the run.
main() {
    root=$(cd "$(dirname "$0")/../.." && pwd)
    cd "$root"
    source tests/lib/debian.sh

    project=tests/fuzz/Ingest.Fuzz
    out=results/fuzz
    seconds=60
    target=""
    while [ $# -gt 0 ]; do
        case "$1" in
            --seconds) seconds="$2"; shift 2 ;;
            -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
            *) target="$1"; shift ;;
        esac
    done

    if [ "$target" = "http" ]; then
        # Raw requests against both services on every transport, as many as fit in the time; the seed is printed, and
        # INGEST_HTTP_FUZZ_SEED=<seed> replays the run.
        seed=${INGEST_HTTP_FUZZ_SEED:-$((RANDOM * 32768 + RANDOM))}
        echo "HTTP fuzz: $seconds s per transport, seed $seed"
        INGEST_HTTP_FUZZ_SEED=$seed INGEST_HTTP_FUZZ_SECONDS=$seconds INGEST_HTTP_FUZZ_REQUESTS=${INGEST_HTTP_FUZZ_REQUESTS:-100000000} \
            dotnet test tests/Ingest.Hosting.Tests -c Release --nologo -tl:off --filter "FullyQualifiedName~HttpFuzzTests" \
            --logger "console;verbosity=detailed"
        exit $?
    fi

    # The uninstrumented build: lists the targets and replays findings (instrumented code outside afl-fuzz has no map).
    dotnet build "$project" -c Release --nologo -v quiet -tl:off >/dev/null
    replay="dotnet $project/bin/Release/net10.0/Ingest.Fuzz.dll"
    targets=$($replay list)
    if [ "$target" = "list" ]; then
        echo "$targets"
        exit 0
    fi
    if [ -z "$target" ]; then
        echo "Usage: bash tests/fuzz/run.sh <target|all> [--seconds N]; targets: all" $targets >&2
        exit 2
    fi
    if [ "$target" != "all" ]; then
        echo "$targets" | grep -qx "$target" || { echo "Unknown target '$target'; targets:" $targets >&2; exit 2; }
        targets="$target"
    fi

    ensure_debian_packages afl++ || { echo "afl-fuzz is needed: apt-get install afl++" >&2; exit 1; }

    # A fresh publish every run: SharpFuzz instruments in place and refuses an assembly it already instrumented.
    rm -rf "$out/bin"
    dotnet publish "$project" -c Release -o "$out/bin" --nologo -v quiet -tl:off >/dev/null
    (cd tests/fuzz && dotnet tool restore >/dev/null)
    for assembly in Ingest.Core Ingest.LoadGen Ingest.Wire; do
        # Only our own parsers feed coverage back; System.Text.Json and Newtonsoft.Json run uninstrumented.
        (cd tests/fuzz && dotnet sharpfuzz "$root/$out/bin/$assembly.dll" >/dev/null)
    done

    # dotnet is not an AFL-instrumented binary (SharpFuzz's fork server speaks AFL's protocol itself); the machine's
    # cores are shared, so no pinning; no UI, plain log lines instead.
    export AFL_SKIP_BIN_CHECK=1 AFL_NO_AFFINITY=1 AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1

    dictionary() {
        case "$1" in
            HttpResponseParser|MediaTypes) echo tests/fuzz/dictionaries/http.dict ;;
            *) echo tests/fuzz/dictionaries/json.dict ;;
        esac
    }

    stat() { awk -F' *: *' -v key="$2" '$1 == key { print $2 }' "$1"; }

    found=0
    summary="target|execs_done|execs_per_sec|edges_found|bitmap_cvg|corpus_count|saved_crashes|saved_hangs"
    for t in $targets; do
        findings="$out/$t"
        rm -rf "$findings"
        echo "== $t: afl-fuzz for $seconds s (log: $findings.log)"
        # -t: a parser call over a 1 MB input takes milliseconds; one taking two seconds is a hang.
        # The run bound (-V) is afl-fuzz's own; timeout(1) is only a backstop should it not stop.
        status=0
        timeout --signal=INT $((seconds + 120)) afl-fuzz -i "$project/Seeds/$t" -o "$findings" -x "$(dictionary "$t")" \
            -t 2000 -m none -V "$seconds" -- dotnet "$out/bin/Ingest.Fuzz.dll" "$t" >"$findings.log" 2>&1 || status=$?
        stats="$findings/default/fuzzer_stats"
        if [ "$status" -ne 0 ] || [ ! -f "$stats" ]; then
            # With the fork server in process, an input that hangs past -t (or kills the runtime) ends the whole run:
            # afl-fuzz then says it cannot talk to the fork server, and the input is the one it was running.
            echo "afl-fuzz stopped with $status:"
            tail -n 5 "$findings.log" | sed 's/\x1b\[[0-9;]*m//g'
            if [ -f "$findings/default/.cur_input" ]; then
                mkdir -p "$findings/default/hangs"
                cp "$findings/default/.cur_input" "$findings/default/hangs/aborted-run-input"
            fi
            found=1
        fi
        if [ -f "$stats" ]; then
            summary+=$'\n'"$t|$(stat "$stats" execs_done)|$(stat "$stats" execs_per_sec)|$(stat "$stats" edges_found)|$(stat "$stats" bitmap_cvg)|$(stat "$stats" corpus_count)|$(stat "$stats" saved_crashes)|$(stat "$stats" saved_hangs)"
        fi
        for kind in crashes hangs; do
            dir="$findings/default/$kind"
            [ -d "$dir" ] || continue
            inputs=$(find "$dir" -type f ! -name README.txt)
            [ -n "$inputs" ] || continue
            found=1
            echo "-- $t $kind (replayed on the uninstrumented build; an input that passes here hung or was slow under afl-fuzz):"
            # shellcheck disable=SC2086
            $replay "$t" $inputs || true
        done
    done

    echo
    echo "$summary" | column -t -s '|'
    echo "Seeds: $project/Seeds/<target>; findings: $out/<target>/default/{crashes,hangs}; replay one with:"
    echo "  dotnet build $project -c Release && $replay <target> <file>"
    exit "$found"
}

main "$@"
