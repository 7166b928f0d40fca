#!/usr/bin/env bash
# Runs every test of the repository — the .NET suites and the Go and Rust baselines' — and ends with one line:
#   tests: N passed, N failed, N skipped   (each skipped test is listed above it with its reason)
# It installs what the tests need on a fresh machine (Debian packages) while the .NET solution builds, builds the Rust
# baseline once, then runs the suites in two lanes that take them from one queue and prints each suite's duration.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source tests/lib/debian.sh

results=$(mktemp -d)
started=$SECONDS

# The C# compiler server (VBCSCompiler), which the SDK uses by default and some machines' environments turn off
# (UseSharedCompilation=false): without it every project's compile is a new compiler process that loads and JITs the
# analyzers and source generators again, and the solution's build took twice as long
# (docs/notebook/ci-time.md#the-compiler-server); the lab's publishes in the test phase inherit it. The server outlives
# the build, so it is shut down when the run ends.
export UseSharedCompilation=true
# Likewise the MSBuild server, which the same environments turn off (DOTNET_CLI_USE_MSBUILD_SERVER=0): the test phase
# runs dozens of `dotnet test`, `dotnet publish` and `dotnet msbuild` commands, and each then started MSBuild afresh and
# JIT-compiled it again. MSBuild's reused worker nodes stay off, as the environment has them: beside the server, a
# reused node started by a publish the lab ran kept that publish's output pipe open, and the lab, reading it to its end,
# waited for good (docs/notebook/ci-time.md#one-restore-per-tree).
export DOTNET_CLI_USE_MSBUILD_SERVER=1 MSBUILDDISABLENODEREUSE=1
# Every process this run starts carries this mark in its environment, and once the suites are done whatever still
# carries it is stopped, and named (and again on exit): a process left running — a service a test did not stop, a
# build server `dotnet build-server shutdown` missed — would go on holding what it inherited, CI's log pipe among it.
export INGEST_TEST_RUN="$$-$(date +%s%N)"
stop_leftovers() {
    dotnet build-server shutdown > /dev/null 2>&1
    local environ pid left=()
    for environ in /proc/[0-9]*/environ; do
        pid=${environ#/proc/}
        pid=${pid%/environ}
        [ "$pid" != $$ ] && grep -qzx "INGEST_TEST_RUN=$INGEST_TEST_RUN" "$environ" 2> /dev/null && left+=("$pid")
    done
    [ ${#left[@]} -gt 0 ] || return 0
    echo "== still running as the run ended, stopped: $(ps -o comm= -p "$(IFS=,; echo "${left[*]}")" 2> /dev/null | sort | uniq -c | awk '{ printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1 }')"
    kill "${left[@]}" 2> /dev/null
    sleep 1
    kill -KILL "${left[@]}" 2> /dev/null
    return 0
}
trap 'stop_leftovers; rm -rf "$results"' EXIT

# One suite: runs its command into a log of its own and records how long it took and how it ended.
# Its CPU time is that of the processes it started and waited for (the MSBuild and compiler servers, which outlive it,
# are not counted), timed in a subshell of its own: timed in the lane's shell, it also took in the CPU of any background
# job that shell reaped meanwhile (a whole other lane, once).
suite() {
    local name=$1
    shift
    local begin=$SECONDS status user system TIMEFORMAT='%U %S'
    ( time "$@" > "$results/$name.log" 2>&1 ) 2> "$results/$name.cpu"
    status=$?
    read -r user system < "$results/$name.cpu"
    echo "$name $((SECONDS - begin)) $status $(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.0f", u + s }')" >> "$results/durations"
    return $status
}

# The .NET solution needs none of the Debian packages: it builds while they install (the two together take about as
# long as the longer of them on a fresh machine, where each takes minutes).
dotnet build Ingest.sln -c Release --nologo -v quiet -tl:off > "$results/dotnet-build.log" 2>&1 &
dotnet_build=$!

# Debian packages the suites use (real processes and peers, never mocks). nginx, caddy, and clang with zlib1g-dev
# (Native AOT) are for the lab's smoke of every set (tests/Ingest.Lab.Tests/LabSmokeTests.cs): what the lab would
# install for itself, installed here because the tests run it with installing off. cargo, rustc and the crates build
# the Rust baseline offline (src/baselines/rust). iproute2 and nftables make the network faults' namespaces, link
# shaping and packet rules (tests/Ingest.EndToEnd.Tests/FaultTests.cs).
ensure_debian_packages curl wrk libuv1 chromium golang-go golang-github-valyala-fasthttp-dev postgresql redis-server prometheus \
    nginx caddy clang zlib1g-dev iproute2 nftables \
    cargo rustc librust-hyper-dev librust-tokio-dev librust-serde-dev librust-serde-derive-dev librust-serde-json-dev \
    || echo "Continuing: the tests that need a missing package will fail and say so."
echo "== installs: $((SECONDS - started)) s (the .NET build beside them)"

# The Rust baseline's binary, once its toolchain is in, built beside the .NET build and on into the first tests. Cargo's
# dev profile, as the Rust tests build it: the tests here check behaviour, never speed, and the release profile's
# whole-program optimisation cost CI three minutes of CPU; the Rust suite then reuses this build
# (docs/notebook/ci-time.md#the-rust-peer-in-ci). The Go suite's conformance run waits for it below, and the lab's
# tests run the same script with the same profile, which waits for this build's lock and then finds the binary built.
{ suite rust-build bash src/baselines/rust/build.sh --profile dev; echo $? > "$results/rust-build.exit"; } &
wait "$dotnet_build"
dotnet_exit=$?
[ "$dotnet_exit" -eq 0 ] || cat "$results/dotnet-build.log"
echo "== .NET build: $((SECONDS - started)) s since the start (the Rust build goes on beside the tests)"

# A .NET test project, or the part of it a filter picks under a name of its own: dotnet_suite PROJECT [NAME FILTER]
dotnet_suite() {
    local project=$1 name=${2:-$(basename "$1" .csproj)} filter=()
    [ -n "${3:-}" ] && filter=(--filter "$3")
    suite "$name" dotnet test "$project" -c Release --no-build --nologo -tl:off "${filter[@]}" \
        --logger "trx;LogFileName=$name.trx" --results-directory "$results/dotnet" \
        -- RunConfiguration.TreatNoTestsAsError=true
}

# The machine's busy and total CPU time so far (jiffies), from /proc/stat's first line.
cpu_times() {
    awk '/^cpu / { busy = $2 + $3 + $4 + $7 + $8 + $9; print busy, busy + $5 + $6; exit }' /proc/stat
}

# Two lanes side by side, as the two cores allow, each taking the next job of one queue when it is free, so neither
# waits idle while the other still has minutes of work. The queue starts with the longest jobs: the lab suite's Native
# AOT and trimmed builds (its tests with the trait Builds=Native, most of its time), the rest of the lab suite, the
# end-to-end and hosting suites; then every other suite; the Go and Rust suites last, once the Rust build is done.
# Each job writes a log of its own, so the lanes' output never mixes; a test that starts a service under a deadline
# gives it room for a loaded machine. (With the lab suite as one lane beside all the rest, the other lane ended minutes
# earlier and left a core idle: docs/notebook/ci-time.md#a-queue-for-two-lanes. A third lane starved the lab's smoke
# runs of their first answers.)
# Both cores are busy through the test phase, and a .NET thread pool whose workers spin before they sleep spends CPU
# the other lane needs: the end-to-end suite beside one busy core took 160 s of CPU with the runtime's default and
# 136 s without the spinning, in the same wall time (docs/notebook/ci-time.md). Every process the suites start inherits it.
export DOTNET_ThreadPool_UnfairSemaphoreSpinLimit=0
# Nor does the JIT instrument hot code to recompile it with what it saw (tiered PGO): it pays off in a service that runs
# for minutes, and the tests' processes live for seconds, so it was JIT work for code that never ran long enough to use
# it (docs/notebook/ci-time.md#a-slower-day). Code generation only: what the code does is the same. The lab's profile
# training is not touched: DOTNET_WritePGOData instruments whatever this says.
export DOTNET_TieredPGO=0
lab=tests/Ingest.Lab.Tests/Ingest.Lab.Tests.csproj
first=(lab-native lab tests/Ingest.EndToEnd.Tests/Ingest.EndToEnd.Tests.csproj tests/Ingest.Hosting.Tests/Ingest.Hosting.Tests.csproj)
{
    printf '%s\n' "${first[@]}"
    for project in tests/*/*.Tests.csproj; do
        [[ " ${first[*]} $lab " == *" $project "* ]] || echo "$project"
    done
    echo go
    echo rust
} > "$results/queue"

# Prints the queue's next job and takes it off, or fails when the queue is empty.
take_job() {
    (
        flock 9
        local job
        job=$(head -n 1 "$results/queue")
        [ -n "$job" ] || exit 1
        sed -i 1d "$results/queue"
        echo "$job"
    ) 9> "$results/queue.lock"
}

run_job() {
    case "$1" in
        lab-native) dotnet_suite "$lab" Ingest.Lab.Tests-native "Builds=Native" ;;
        lab) dotnet_suite "$lab" Ingest.Lab.Tests "Builds!=Native" ;;
        go | rust)
            until [ -f "$results/rust-build.exit" ]; do sleep 1; done
            suite "$1" bash "src/baselines/$1/test.sh" ;;
        *) dotnet_suite "$1" ;;
    esac
}

lane() {
    local job
    while job=$(take_job); do
        run_job "$job"
    done
}

phase=$SECONDS
read -r busy_before total_before < <(cpu_times)
lane &
other_lane=$!
lane
wait "$other_lane"
wait
[ "$(cat "$results/rust-build.exit" 2>/dev/null)" = 0 ] \
    || { cat "$results/rust-build.log"; echo "The Rust baseline did not build: its tests and rows failed and said so."; }
read -r busy_after total_after < <(cpu_times)
echo "== tests: $((SECONDS - phase)) s, the machine's cores $(awk -v b=$((busy_after - busy_before)) -v t=$((total_after - total_before)) -v n="$(nproc)" 'BEGIN { printf "%.0f%% busy (%.2f of %d)", 100 * b / t, n * b / t, n }'):"
sort -k2 -n -r "$results/durations" | awk '{ printf "   %-32s %5d s %6d s CPU%s\n", $1, $2, $4, ($3 == 0 ? "" : "  (exit " $3 ")") }'
# A .NET suite that exited non-zero (a failed test, or a test host that crashed) is a failure even without counters.
if awk '$1 ~ /^Ingest\./ && $3 != 0 { bad = 1 } END { exit !bad }' "$results/durations"; then
    dotnet_exit=1
fi

# Each .NET suite's log, for the record (failures are repeated at the end).
for log in "$results"/Ingest.*.log; do
    grep -E '^(Passed|Failed)!|error' "$log" | head -n 20
done

# The ten slowest .NET tests, where the next minute of CI time is to be found.
echo "== slowest tests:"
cat "$results"/dotnet/*.trx 2>/dev/null | awk '
    /<UnitTestResult / && match($0, /duration="[0-9:.]*"/) {
        split(substr($0, RSTART + 10, RLENGTH - 11), t, ":"); seconds = t[1] * 3600 + t[2] * 60 + t[3]
        match($0, /testName="[^"]*"/); print seconds "\t" substr($0, RSTART + 10, RLENGTH - 11) }' \
    | sort -t "$(printf '\t')" -k1 -n -r | head -n 10 \
    | sed 's/&quot;/"/g' | awk -F '\t' '{ printf "   %5d s  %s\n", $1, substr($2, 1, 150) }'

# One line per test of a TRX file with the given outcome: "<LABEL> <test name>: <first line of its message>".
outcomes() {
    awk -v outcome="$1" -v label="$2" '
        index($0, "outcome=\"" outcome "\"") { match($0, /testName="[^"]*"/); name = substr($0, RSTART + 10, RLENGTH - 11) }
        name != "" && /<Message>/ { sub(/.*<Message>/, ""); sub(/<\/Message>.*/, ""); print label " " name ": " $0; name = "" }' "$3"
}

passed=0
failed=0
skipped=0
for trx in "$results"/dotnet/*.trx; do
    [ -f "$trx" ] || continue
    counters=$(grep -o '<Counters [^>]*>' "$trx" | head -n 1)
    p=$(echo "$counters" | grep -o ' passed="[0-9]*"' | grep -o '[0-9]*')
    f=$(echo "$counters" | grep -o ' failed="[0-9]*"' | grep -o '[0-9]*')
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-0}))
    # A skipped test is never silent: its name and the reason it gave (a tool this machine cannot install).
    # (The TRX counters leave skips out: notExecuted stays 0.)
    skips=$(outcomes NotExecuted SKIPPED "$trx")
    if [ -n "$skips" ]; then
        echo "$skips"
        skipped=$((skipped + $(echo "$skips" | wc -l)))
    fi
    # A failed test's name and the first line of its message, kept for the end of the log (CI shows its tail).
    outcomes Failed FAILED "$trx" >> "$results/failures.txt"
done

# The baselines' own runners end with a line of totals: "go: N passed, N failed" (unit tests, and the conformance
# suite over every Go binary and the Rust one), "rust: N passed, N failed". A runner without one counts as a failure.
for baseline in go rust; do
    cat "$results/$baseline.log"
    line=$(grep -E "^$baseline: [0-9]+ passed, [0-9]+ failed$" "$results/$baseline.log" | tail -n 1)
    if [ -n "$line" ]; then
        passed=$((passed + $(echo "$line" | awk '{print $2}')))
        failed=$((failed + $(echo "$line" | awk '{print $4}')))
    else
        failed=$((failed + 1))
        echo "The $baseline tests printed no totals: counted as one failure."
    fi
done

# A build failure or a crashed test host produces no counters: count it as a failure, never as silence.
if [ "$dotnet_exit" -ne 0 ] && [ "$failed" -eq 0 ]; then
    failed=$((failed + 1))
    echo "dotnet build or test exited with $dotnet_exit without a failed test: counted as one failure."
fi

stop_leftovers
echo "== total: $((SECONDS - started)) s"
# On a line of its own: progress output above may have left the cursor mid-line.
echo
# The failed .NET tests again, right above the totals, so a log cut to its tail still names them.
[ -s "$results/failures.txt" ] && cat "$results/failures.txt"
echo "tests: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
