# Sourced by build.sh and test.sh: finds Debian's Go and fasthttp and prepares a throw-away GOPATH, so the
# Go baselines build offline (GOPATH mode: no module proxy, no downloads). Nothing here installs anything.
#
# Overrides: GO (the go command to use), FASTHTTP_GOPATH (a GOPATH root holding
# src/github.com/valyala/fasthttp and its dependencies).

baselines_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
fasthttp_marker="src/github.com/valyala/fasthttp/server.go"

# Sets GO to a usable go command (Go 1.19 or newer), or says why not and returns 1.
find_go() {
    if [ -n "${GO:-}" ]; then
        GO="$(command -v "$GO" || true)"
    elif command -v go >/dev/null 2>&1; then
        GO="$(command -v go)"
    elif command -v dpkg >/dev/null 2>&1; then
        # golang-go installed but its bin directory not on PATH: ask dpkg where it put the command.
        GO="$(dpkg -L golang-go $(dpkg-query -W -f '${Package}\n' 'golang-1.*-go' 2>/dev/null) 2>/dev/null | grep -E '/bin/go$' | head -n 1 || true)"
    fi
    if [ -z "${GO:-}" ] || [ ! -x "$GO" ]; then
        echo "go not found: install Debian's golang-go (apt-get install -y golang-go) or set GO to a go command" >&2
        return 1
    fi
    local version minor
    version="$("$GO" env GOVERSION 2>/dev/null || true)"
    minor="$(echo "$version" | sed -n 's/^go1\.\([0-9]*\).*/\1/p')"
    if [ -z "$minor" ] || [ "$minor" -lt 19 ]; then
        echo "$GO is ${version:-of unknown version}; the Go baselines need Go 1.19 or newer (Debian bookworm's golang-go)" >&2
        return 1
    fi
}

# Prints the GOPATH root holding fasthttp's sources: FASTHTTP_GOPATH, an entry of GOPATH, or wherever
# Debian's golang-github-valyala-fasthttp-dev put them. Returns 1 when there is none.
find_fasthttp() {
    local root file
    local IFS=:
    for root in ${FASTHTTP_GOPATH:-} ${GOPATH:-}; do
        if [ -f "$root/$fasthttp_marker" ]; then
            echo "$root"
            return 0
        fi
    done
    unset IFS
    if command -v dpkg >/dev/null 2>&1; then
        file="$(dpkg -L golang-github-valyala-fasthttp-dev 2>/dev/null | grep "/$fasthttp_marker\$" | head -n 1 || true)"
        if [ -n "$file" ] && [ -f "$file" ]; then
            echo "${file%/"$fasthttp_marker"}"
            return 0
        fi
    fi
    return 1
}

# Makes a temporary GOPATH in which these sources are the import path "ingest", exports the Go
# environment for GOPATH mode (offline) and changes into the sources there. $1: the fasthttp root, or "".
enter_gopath() {
    gopath_dir="$(mktemp -d -t ingest-go.XXXXXX)"
    trap 'rm -rf "$gopath_dir"' EXIT
    mkdir -p "$gopath_dir/src"
    ln -s "$baselines_dir" "$gopath_dir/src/ingest"
    export GO111MODULE=off GOFLAGS= GOPROXY=off GOTOOLCHAIN=local
    export GOPATH="$gopath_dir${1:+:$1}"
    if [ -z "$("$GO" env GOCACHE 2>/dev/null)" ]; then
        export GOCACHE="$gopath_dir/cache" # no HOME: build without a persistent cache
    fi
    # Through the link, so the go command sees the sources inside GOPATH (it trusts $PWD).
    cd "$gopath_dir/src/ingest"
}

# Go's work on this machine shares its cores with other builds: run it at low priority where possible.
run_go() {
    if command -v nice >/dev/null 2>&1; then
        nice -n 10 "$GO" "$@"
    else
        "$GO" "$@"
    fi
}

# The Rust baseline's binary (src/baselines/rust, built by its own build script): the conformance suite checks it
# too when it exists.
rust_binary="$(cd "$baselines_dir/.." && pwd)/rust/bin/ingest-rust"

# Builds the Go binaries the conformance suite runs into directory $1, with more go build flags after it (-race):
# ingest-go always, ingest-go-fasthttp when $2 (the fasthttp root) is not empty. Call it after enter_gopath. Returns 1
# when a build failed (go has said why).
build_conformance_binaries() {
    local dir=$1 root=$2
    shift 2
    mkdir -p "$dir"
    run_go build "$@" -o "$dir/ingest-go" ./cmd/ingest-go || return 1
    if [ -n "$root" ]; then
        run_go build "$@" -o "$dir/ingest-go-fasthttp" ./cmd/ingest-go-fasthttp || return 1
    fi
}

# Prints the implementations the conformance suite checks by default, one a line (NAME=FRONTEND[,BACKEND][ FLAGS]), from
# the Go binaries in directory $1: net/http with each client, the fasthttp pair, and the fasthttp front-end before the
# net/http back-end (the lab's pairing until it runs the fasthttp back-end); plus the Rust baseline where it is built.
default_implementations() {
    local dir=$1
    echo "go-nethttp=$dir/ingest-go"
    echo "go-nethttp-per-request=$dir/ingest-go -client per-request"
    if [ -x "$dir/ingest-go-fasthttp" ]; then
        echo "go-fasthttp=$dir/ingest-go-fasthttp"
        echo "go-fasthttp-front-nethttp-back=$dir/ingest-go-fasthttp,$dir/ingest-go"
    fi
    if [ -x "$rust_binary" ]; then
        echo "rust=$rust_binary"
    fi
}
