#!/usr/bin/env bash
# Checks the Go baselines: gofmt, go vet, and every Go test — the packages' unit tests, the commands run as
# processes, and the conformance suite (internal/e2etest) against the Go binaries, built into a temporary directory
# (net/http with each client, the fasthttp pair, the fasthttp front-end before the net/http back-end), and against
# src/baselines/rust/bin/ingest-rust when that file exists (build it first to have it checked).
# Builds nothing into bin/. The last line is "go: N passed, N failed" (a check that fails counts as one);
# exit code 0 only when nothing failed.
#
# Usage: test.sh [--nethttp-only] [--race]
set -uo pipefail

nethttp_only=0
race=()
for arg in "$@"; do
    case "$arg" in
        --nethttp-only) nethttp_only=1 ;;
        --race) race=(-race) ;;
        -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "test.sh: unknown argument '$arg' (use --nethttp-only, --race)" >&2; exit 2 ;;
    esac
done

# shellcheck source=env.sh
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

passed=0
failed=0
fail() {
    echo "FAILED: $1"
    failed=$((failed + 1))
}
finish() {
    echo "go: $passed passed, $failed failed"
    [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
    exit
}

if ! find_go; then
    fail "no usable Go toolchain"
    finish
fi
fasthttp_root=""
if [ "$nethttp_only" -eq 0 ] && ! fasthttp_root="$(find_fasthttp)"; then
    fail "fasthttp sources not found (golang-github-valyala-fasthttp-dev): the fasthttp front-end is untested; use --nethttp-only to test without it"
    fasthttp_root=""
fi
enter_gopath "$fasthttp_root"

packages=(./contract ./service ./stdhttp ./internal/e2etest ./cmd/ingest-go)
if [ -n "$fasthttp_root" ]; then
    packages+=(./fast ./cmd/ingest-go-fasthttp)
fi

unformatted="$(gofmt_cmd="$(dirname "$GO")/gofmt"; [ -x "$gofmt_cmd" ] || gofmt_cmd=gofmt; "$gofmt_cmd" -l . 2>&1)"
if [ -n "$unformatted" ]; then
    fail "gofmt: not formatted: $unformatted"
fi
if ! run_go vet "${packages[@]}"; then
    fail "go vet"
fi

# The conformance suite runs real binaries: built here (with the race detector under --race), never bin/'s.
binaries="$gopath_dir/conformance-bin"
if build_conformance_binaries "$binaries" "$fasthttp_root" "${race[@]}"; then
    INGEST_CONFORMANCE="$(default_implementations "$binaries")"
    export INGEST_CONFORMANCE
    echo "conformance suite against: $(echo "$INGEST_CONFORMANCE" | cut -d= -f1 | paste -sd, -)"
else
    fail "go build of the conformance binaries"
fi

log="$gopath_dir/test.log"
# Without the checks `go test` runs by default: they are a subset of what `go vet` ran on the same packages above.
run_go test -count=1 -vet=off -timeout 5m -v "${race[@]}" "${packages[@]}" >"$log" 2>&1
status=$?
passed=$((passed + $(grep -cE '^\s*--- PASS: ' "$log")))
test_failures=$(grep -cE '^\s*--- FAIL: ' "$log")
build_failures=$(grep -cE '^FAIL\s+\S+\s+\[(build|setup) failed\]' "$log")
failed=$((failed + test_failures + build_failures))
if [ "$status" -ne 0 ] || [ "$test_failures" -gt 0 ] || [ "$build_failures" -gt 0 ]; then
    cat "$log" # everything, to see what went wrong
    if [ "$test_failures" -eq 0 ] && [ "$build_failures" -eq 0 ]; then
        fail "go test exited with $status without a failed test"
    fi
else
    grep -E '^(ok|FAIL|\?)\s' "$log" # one line per package
    grep -E '^    --- (PASS|FAIL): TestConformance/' "$log" # one line per implementation
fi
finish
