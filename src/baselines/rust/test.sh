#!/usr/bin/env bash
# Checks the Rust baseline: every cargo test — the contract's unit tests and the end-to-end tests, which run the
# ingest-rust binary as processes over loopback. Builds nothing into bin/ and installs nothing. The last line is
# "rust: N passed, N failed" (a build that fails counts as one failure); exit code 0 only when nothing failed and
# something passed.
#
# Usage: test.sh
set -uo pipefail

for arg in "$@"; do
    case "$arg" in
        -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "test.sh: unknown argument '$arg' (it takes none)" >&2; exit 2 ;;
    esac
done

# shellcheck source=env.sh
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

passed=0
failed=0
finish() {
    echo "rust: $passed passed, $failed failed"
    [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
    exit
}

if ! find_cargo || ! find_crates; then
    echo "FAILED: no usable Rust toolchain or crates (see above)"
    failed=$((failed + 1))
    finish
fi
echo "Rust: $CARGO ($("$CARGO" --version)), rustc ${RUSTC:-rustc} ($("${RUSTC:-rustc}" --version))"

# The dev profile as build.sh --profile dev builds it: after that build, the tests compile only their own harnesses.
dev_profile_env
log="$(mktemp -t ingest-rust-test.XXXXXX)"
trap 'rm -f "$log"' EXIT
run_cargo test --no-fail-fast >"$log" 2>&1
status=$?
# One "test result:" line per test binary: "test result: ok. 12 passed; 0 failed; 0 ignored; …".
while read -r p f; do
    passed=$((passed + p))
    failed=$((failed + f))
done < <(sed -n 's/^test result: [A-Za-z]*\. \([0-9]*\) passed; \([0-9]*\) failed;.*/\1 \2/p' "$log")
if [ "$status" -ne 0 ] || [ "$failed" -gt 0 ]; then
    cat "$log" # everything, to see what went wrong
    if [ "$failed" -eq 0 ]; then
        echo "FAILED: cargo test exited with $status without a failed test (a build error?)"
        failed=$((failed + 1))
    fi
else
    grep -E '^(test result:|     Running )' "$log"
fi
finish
