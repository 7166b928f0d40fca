#!/usr/bin/env bash
# Runs the conformance suite (internal/e2etest, docs/contract.md from the outside) against baseline binaries that have
# ingest-go's command line, each started as real processes on 127.0.0.1: its front-end behind its own back-end, the
# back-end's own cases, the processes' life cycle and command line. The last line is
# "conformance: N passed, N failed"; exit code 0 only when nothing failed.
#
# Usage: conformance.sh [--race] [NAME=PATH[,BACKEND_PATH][ FRONT-END FLAGS]]...
#   NAME=PATH                 one binary for both roles (-role frontend|backend)
#   NAME=FRONT,BACK           the front-end's binary and the back-end's
#   'NAME=PATH -client x'     (one argument) flags added to every front-end's command line
# Without an implementation it builds the Go binaries into a temporary directory (--race: with the race detector) and
# checks those and src/baselines/rust/bin/ingest-rust when it exists, as test.sh does.
# Example: conformance.sh rust=src/baselines/rust/bin/ingest-rust go=src/baselines/go/bin/ingest-go
set -uo pipefail

race=()
specs=()
for arg in "$@"; do
    case "$arg" in
        --race) race=(-race) ;;
        -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "conformance.sh: unknown option '$arg'" >&2; exit 2 ;;
        *=*)
            # Paths are made absolute here: the suite runs from another directory.
            read -r first rest <<<"$arg"
            name="${first%%=*}"
            paths="${first#*=}"
            absolute=()
            IFS=, read -r -a parts <<<"$paths"
            for path in "${parts[@]}"; do
                if [ ! -x "$path" ] || [ -d "$path" ]; then
                    echo "conformance.sh: $name: $path is not an executable file" >&2
                    exit 2
                fi
                absolute+=("$(cd "$(dirname "$path")" && pwd)/$(basename "$path")")
            done
            specs+=("$name=$(IFS=,; echo "${absolute[*]}")${rest:+ $rest}")
            ;;
        *) echo "conformance.sh: '$arg' is not NAME=PATH" >&2; exit 2 ;;
    esac
done

# shellcheck source=env.sh
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
if ! find_go; then
    echo "conformance: 0 passed, 1 failed"
    exit 1
fi
fasthttp_root="$(find_fasthttp || true)"
enter_gopath "$fasthttp_root"

if [ "${#specs[@]}" -eq 0 ]; then
    if ! build_conformance_binaries "$gopath_dir/conformance-bin" "$fasthttp_root" "${race[@]}"; then
        echo "conformance: 0 passed, 1 failed"
        exit 1
    fi
    [ -n "$fasthttp_root" ] || echo "fasthttp sources not found (golang-github-valyala-fasthttp-dev): the fasthttp binary is not checked"
    mapfile -t specs < <(default_implementations "$gopath_dir/conformance-bin")
fi
INGEST_CONFORMANCE="$(printf '%s\n' "${specs[@]}")"
export INGEST_CONFORMANCE
echo "conformance suite against: $(printf '%s\n' "${specs[@]}" | cut -d= -f1 | paste -sd, -)"

log="$gopath_dir/conformance.log"
started=$(date +%s)
run_go test -count=1 -timeout 10m -v "${race[@]}" -run '^TestConformance$' ./internal/e2etest >"$log" 2>&1
status=$?
passed=$(grep -cE '^\s*--- PASS: ' "$log")
failed=$(grep -cE '^\s*--- FAIL: ' "$log")
if [ "$status" -ne 0 ] || [ "$failed" -gt 0 ]; then
    grep -vE '^\s*(=== (RUN|PAUSE|CONT)|--- PASS: )' "$log" # the failures with their messages
    [ "$failed" -gt 0 ] || failed=1                         # a build failure or a crash: never silence
else
    grep -E '^    --- PASS: TestConformance/' "$log" # one line per implementation
fi
echo "($(( $(date +%s) - started )) s)"
echo "conformance: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
