#!/usr/bin/env bash
# Runs the Go baselines' tests (unit and end-to-end over real loopback sockets) and ends with one line:
#   go: N passed, N failed
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
go=$(command -v go || ls /usr/lib/go-*/bin/go 2>/dev/null | tail -n 1)
if [ -z "$go" ]; then
    echo "Go is not installed (Debian package golang-go): the Go tests cannot run."
    echo "go: 0 passed, 1 failed"
    exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src"
ln -s "$here/ingest" "$work/src/ingest"
export GO111MODULE=off GOPATH="$work:/usr/share/gocode" GOFLAGS=-mod= GOPROXY=off
cd "$here"
packages=(ingest ingest/server)
[ -d /usr/share/gocode/src/github.com/valyala/fasthttp ] && packages+=(ingest/fastfront)

"$go" test -count=1 -json "${packages[@]}" > "$work/results.json" 2>&1
exit_code=$?
# Human view: the failures, and each package's verdict.
grep -E '"Action":"(fail|output)"' "$work/results.json" | grep -E '"Action":"fail"|--- FAIL|FAIL|panic' | sed -E 's/.*"Output":"(.*)".*/\1/; s/\\n$//; s/\\t/    /g' | head -n 60
grep -E '^(ok|FAIL)\s' "$work/results.json" || true
passed=$(grep -c '"Action":"pass","Package":"[^"]*","Test":' "$work/results.json")
failed=$(grep -c '"Action":"fail","Package":"[^"]*","Test":' "$work/results.json")
# A package that does not build reports no test: count it as a failure, never as silence.
if [ "$exit_code" -ne 0 ] && [ "$failed" -eq 0 ]; then
    failed=1
    grep -v '"Action"' "$work/results.json" | head -n 20
fi
echo "go: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
