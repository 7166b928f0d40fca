#!/usr/bin/env bash
# Builds the Go baselines into bin/ with Debian's Go toolchain, offline: GOPATH mode (no module download),
# fasthttp from Debian's golang-github-valyala-fasthttp-dev. Says plainly what it could not build; exits 0
# only when everything asked for was built.
#   build.sh                 both binaries
#   build.sh --nethttp-only  only the net/http one
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
nethttp_only=0
[ "${1:-}" = "--nethttp-only" ] && nethttp_only=1

go=$(command -v go || ls /usr/lib/go-*/bin/go 2>/dev/null | tail -n 1)
if [ -z "$go" ]; then
    echo "Go is not installed (Debian package golang-go): no Go baseline built."
    exit 1
fi
gocode=/usr/share/gocode

# A throw-away GOPATH whose src/ingest is this folder's package, beside Debian's Go sources.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src"
ln -s "$here/ingest" "$work/src/ingest"
export GO111MODULE=off GOPATH="$work:$gocode" GOFLAGS=-mod= GOPROXY=off
mkdir -p "$here/bin"
cd "$here"

status=0
if "$go" build -trimpath -o bin/ingest-go ./cmd/ingest-go; then
    echo "built bin/ingest-go with $("$go" version)"
else
    echo "ingest-go: the build failed."
    status=1
fi

if [ "$nethttp_only" -eq 0 ]; then
    if [ -d "$gocode/src/github.com/valyala/fasthttp" ]; then
        if "$go" build -trimpath -o bin/ingest-go-fasthttp ./cmd/ingest-go-fasthttp; then
            echo "built bin/ingest-go-fasthttp (fasthttp from Debian)"
        else
            echo "ingest-go-fasthttp: the build failed."
            status=1
        fi
    else
        echo "fasthttp sources are missing (Debian package golang-github-valyala-fasthttp-dev): ingest-go-fasthttp not built."
        status=1
    fi
fi
exit $status
