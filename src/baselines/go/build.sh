#!/usr/bin/env bash
# Builds the Go baselines into bin/ (git-ignored) with Debian's Go, offline, in GOPATH mode:
#   bin/ingest-go           net/http front-end and back-end
#   bin/ingest-go-fasthttp  fasthttp front-end and back-end (needs golang-github-valyala-fasthttp-dev)
# Installs nothing. Exit code 0 only when everything asked for was built; the last line says what was not.
#
# Usage: build.sh [--nethttp-only]
set -euo pipefail

nethttp_only=0
for arg in "$@"; do
    case "$arg" in
        --nethttp-only) nethttp_only=1 ;;
        -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "build.sh: unknown argument '$arg' (use --nethttp-only or nothing)" >&2; exit 2 ;;
    esac
done

# shellcheck source=env.sh
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
bin="$baselines_dir/bin"

if ! find_go; then
    echo "NOT built: bin/ingest-go, bin/ingest-go-fasthttp: no usable Go toolchain (see above)"
    exit 1
fi

fasthttp_root=""
fasthttp_missing=""
if [ "$nethttp_only" -eq 0 ]; then
    if ! fasthttp_root="$(find_fasthttp)"; then
        fasthttp_missing="fasthttp sources not found: install golang-github-valyala-fasthttp-dev (apt-get install -y golang-github-valyala-fasthttp-dev) or set FASTHTTP_GOPATH"
        fasthttp_root=""
    fi
fi

enter_gopath "$fasthttp_root"
echo "Go: $GO ($("$GO" env GOVERSION)), GOPATH mode${fasthttp_root:+, fasthttp from $fasthttp_root}"
mkdir -p "$bin"

failed=()
# A plain `go build`: the standard library Debian's Go ships compiled serves it as it is, where -trimpath (file paths
# left out of the binary, the same machine code) compiles the standard library again on a machine whose build cache is
# empty, as CI's is: four times the CPU for the same binaries (docs/notebook/ci-time.md#the-compiler-server).
build() { # binary, package, what
    if run_go build -o "$bin/$1" "./cmd/$1"; then
        echo "built bin/$1 ($3)"
    else
        rm -f "$bin/$1" # never leave a stale binary for the lab to run
        failed+=("bin/$1: go build failed (see above)")
    fi
}

build ingest-go cmd/ingest-go "net/http front-end and back-end"
if [ "$nethttp_only" -eq 1 ]; then
    echo "skipped bin/ingest-go-fasthttp (--nethttp-only)"
elif [ -n "$fasthttp_missing" ]; then
    rm -f "$bin/ingest-go-fasthttp"
    failed+=("bin/ingest-go-fasthttp: $fasthttp_missing")
else
    build ingest-go-fasthttp cmd/ingest-go-fasthttp "fasthttp front-end and back-end"
fi

if [ "${#failed[@]}" -gt 0 ]; then
    for reason in "${failed[@]}"; do
        echo "NOT built: $reason"
    done
    exit 1
fi
