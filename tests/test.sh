#!/usr/bin/env bash
# Runs every test of the repository — the .NET suites and the Go and Rust baselines' — and ends with one line:
#   tests: N passed, N failed, N skipped   (each skipped test is listed above it with its reason)
# It installs what the tests need on a fresh machine (Debian packages) first.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source tests/lib/debian.sh

results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT

# Debian packages the suites use (real processes and peers, never mocks). nginx, caddy, and clang with zlib1g-dev
# (Native AOT) are for the lab's smoke of every set (tests/Ingest.Lab.Tests/LabSmokeTests.cs): what the lab would
# install for itself, installed here because the tests run it with installing off.
ensure_debian_packages curl wrk libuv1 chromium golang-go golang-github-valyala-fasthttp-dev postgresql redis-server prometheus \
    nginx caddy clang zlib1g-dev \
    || echo "Continuing: the tests that need a missing package will fail and say so."

dotnet build Ingest.sln -c Release --nologo -v quiet -tl:off
dotnet_exit=$?

# One run per test project, each with its own TRX file, so no two results can land in one file name.
for project in tests/*/*.Tests.csproj; do
    name=$(basename "$project" .csproj)
    dotnet test "$project" -c Release --no-build --nologo -tl:off \
        --logger "trx;LogFileName=$name.trx" --results-directory "$results/dotnet" \
        -- RunConfiguration.TreatNoTestsAsError=true || dotnet_exit=$?
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

# The Go baselines' own tests (unit and end-to-end over loopback): their runner ends "go: N passed, N failed".
# Through a file, not `tee /dev/stderr`: when stderr is a file, reopening it truncates it, and the log loses
# everything printed before (the rest of the file becomes NUL bytes).
bash src/baselines/go/test.sh > "$results/go.log" 2>&1
cat "$results/go.log"
go_line=$(grep -E '^go: [0-9]+ passed, [0-9]+ failed$' "$results/go.log" | tail -n 1)
if [ -n "$go_line" ]; then
    passed=$((passed + $(echo "$go_line" | awk '{print $2}')))
    failed=$((failed + $(echo "$go_line" | awk '{print $4}')))
else
    failed=$((failed + 1))
    echo "The Go tests printed no totals: counted as one failure."
fi

# The Rust baseline's own tests (unit and end-to-end over loopback), built offline from Debian's crates: "rust: N passed, N failed".
ensure_debian_packages cargo rustc librust-hyper-dev librust-tokio-dev librust-serde-dev librust-serde-derive-dev librust-serde-json-dev \
    || echo "Continuing: the Rust tests will fail and say what is missing."
bash src/baselines/rust/test.sh > "$results/rust.log" 2>&1
cat "$results/rust.log"
rust_line=$(grep -E '^rust: [0-9]+ passed, [0-9]+ failed$' "$results/rust.log" | tail -n 1)
if [ -n "$rust_line" ]; then
    passed=$((passed + $(echo "$rust_line" | awk '{print $2}')))
    failed=$((failed + $(echo "$rust_line" | awk '{print $4}')))
else
    failed=$((failed + 1))
    echo "The Rust tests printed no totals: counted as one failure."
fi

# A build failure or a crashed test host produces no counters: count it as a failure, never as silence.
if [ "$dotnet_exit" -ne 0 ] && [ "$failed" -eq 0 ]; then
    failed=$((failed + 1))
    echo "dotnet test exited with $dotnet_exit without a failed test: counted as one failure."
fi

# On a line of its own: progress output above may have left the cursor mid-line.
echo
# The failed .NET tests again, right above the totals, so a log cut to its tail still names them.
[ -s "$results/failures.txt" ] && cat "$results/failures.txt"
echo "tests: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
