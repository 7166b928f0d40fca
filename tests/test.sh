#!/usr/bin/env bash
# Runs every test of the repository — the .NET suites and the Go and Rust baselines' — and ends with one line:
#   tests: N passed, N failed, N skipped   (each skipped test is listed above it with its reason)
# It installs what the tests need on a fresh machine (Debian packages) first, builds everything once (the .NET solution
# beside the Rust baseline's release build), then runs each suite and prints its duration.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source tests/lib/debian.sh

results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
started=$SECONDS

# Debian packages the suites use (real processes and peers, never mocks). nginx, caddy, and clang with zlib1g-dev
# (Native AOT) are for the lab's smoke of every set (tests/Ingest.Lab.Tests/LabSmokeTests.cs): what the lab would
# install for itself, installed here because the tests run it with installing off. cargo, rustc and the crates build
# the Rust baseline offline (src/baselines/rust). iproute2 and nftables make the network faults' namespaces, link
# shaping and packet rules (tests/Ingest.EndToEnd.Tests/FaultTests.cs).
ensure_debian_packages curl wrk libuv1 chromium golang-go golang-github-valyala-fasthttp-dev postgresql redis-server prometheus \
    nginx caddy clang zlib1g-dev iproute2 nftables \
    cargo rustc librust-hyper-dev librust-tokio-dev librust-serde-dev librust-serde-derive-dev librust-serde-json-dev \
    || echo "Continuing: the tests that need a missing package will fail and say so."
echo "== installs: $((SECONDS - started)) s"

# Build once: the .NET solution, and beside it the Rust baseline's release binary, which the Go suite's conformance
# run and the lab's tests start (the lab finds it built and does not build it again).
phase=$SECONDS
bash src/baselines/rust/build.sh > "$results/rust-build.log" 2>&1 &
rust_build=$!
dotnet build Ingest.sln -c Release --nologo -v quiet -tl:off
dotnet_exit=$?
wait "$rust_build" || { cat "$results/rust-build.log"; echo "The Rust baseline did not build: its tests and rows will fail and say so."; }
echo "== build: $((SECONDS - phase)) s"

# One suite: runs its command into a log of its own and records how long it took.
suite() {
    local name=$1
    shift
    local begin=$SECONDS
    "$@" > "$results/$name.log" 2>&1
    local status=$?
    echo "$name $((SECONDS - begin)) $status" >> "$results/durations"
    return $status
}

dotnet_suite() {
    local name
    name=$(basename "$1" .csproj)
    suite "$name" dotnet test "$1" -c Release --no-build --nologo -tl:off \
        --logger "trx;LogFileName=$name.trx" --results-directory "$results/dotnet" \
        -- RunConfiguration.TreatNoTestsAsError=true
}

# One suite after another. Side by side (the lab's suite beside the others) saved about a third of the time, but three
# tests that start services under a deadline failed now and then on the shared cores, so the suites run one at a time
# until those are robust to a loaded machine.
phase=$SECONDS
for project in tests/*/*.Tests.csproj; do
    dotnet_suite "$project" || dotnet_exit=$?
done
suite go bash src/baselines/go/test.sh
suite rust bash src/baselines/rust/test.sh
echo "== tests: $((SECONDS - phase)) s:"
sort -k2 -n -r "$results/durations" | awk '{ printf "   %-32s %5d s%s\n", $1, $2, ($3 == 0 ? "" : "  (exit " $3 ")") }'

# Each .NET suite's log, for the record (failures are repeated at the end).
for log in "$results"/Ingest.*.log; do
    grep -E '^(Passed|Failed)!|error' "$log" | head -n 20
done

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

echo "== total: $((SECONDS - started)) s"
# On a line of its own: progress output above may have left the cursor mid-line.
echo
# The failed .NET tests again, right above the totals, so a log cut to its tail still names them.
[ -s "$results/failures.txt" ] && cat "$results/failures.txt"
echo "tests: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
