# Sourced by build.sh and test.sh: finds the cargo to build with and Debian's packaged crate sources, so the
# Rust baseline builds offline (no registry, no downloads). Nothing here installs anything.
#
# Overrides: CARGO (the cargo command to use; RUSTC then comes from the environment or the PATH),
# INGEST_RUST_CRATES (a directory of unpacked crates with .cargo-checksum.json files, as Debian lays them out).

rust_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
install_hint="apt-get install -y cargo rustc librust-hyper-dev librust-tokio-dev librust-serde-dev librust-serde-derive-dev librust-serde-json-dev"

# Prints where Debian's package $1 installed the command $2, or nothing.
debian_command() {
    command -v dpkg >/dev/null 2>&1 || return 0
    dpkg-query -W -f '${Status}' "$1" 2>/dev/null | grep -q "install ok installed" || return 0
    dpkg -L "$1" 2>/dev/null | grep -E "/bin/$2\$" | head -n 1 || true
}

# Sets CARGO (and RUSTC/RUSTDOC for Debian's cargo) or says why not and returns 1. Debian's cargo is preferred when
# its package is installed: it is the toolchain Debian's crates were packaged for. A rustup toolchain earlier on the
# PATH would otherwise answer as "rustc" for it, so Debian's rustc and rustdoc are named explicitly.
find_cargo() {
    local debian_cargo debian_rustc debian_rustdoc
    debian_cargo="$(debian_command cargo cargo)"
    if [ -n "${CARGO:-}" ]; then
        CARGO="$(command -v "$CARGO" || true)"
    elif [ -n "$debian_cargo" ] && [ -x "$debian_cargo" ]; then
        CARGO="$debian_cargo"
        debian_rustc="$(debian_command rustc rustc)"
        debian_rustdoc="$(debian_command rustc rustdoc)"
        [ -n "$debian_rustc" ] && [ -x "$debian_rustc" ] && export RUSTC="$debian_rustc"
        [ -n "$debian_rustdoc" ] && [ -x "$debian_rustdoc" ] && export RUSTDOC="$debian_rustdoc"
    elif command -v cargo >/dev/null 2>&1; then
        CARGO="$(command -v cargo)"
    fi
    if [ -z "${CARGO:-}" ] || [ ! -x "$CARGO" ]; then
        echo "cargo not found: $install_hint (or set CARGO)" >&2
        return 1
    fi
}

# Sets crates_dir to the directory holding Debian's crate sources (where librust-serde-json-dev put serde_json), or
# says why not and returns 1.
find_crates() {
    crates_dir="${INGEST_RUST_CRATES:-}"
    if [ -z "$crates_dir" ] && command -v dpkg >/dev/null 2>&1; then
        local manifest
        manifest="$(dpkg -L librust-serde-json-dev 2>/dev/null | grep -E '/serde_json-[^/]+/Cargo\.toml$' | head -n 1 || true)"
        [ -n "$manifest" ] && crates_dir="$(dirname "$(dirname "$manifest")")"
    fi
    if [ -z "$crates_dir" ] || [ ! -d "$crates_dir" ]; then
        echo "Debian's crate sources not found: $install_hint (or set INGEST_RUST_CRATES)" >&2
        return 1
    fi
    local crate missing=()
    for crate in hyper tokio serde serde_derive serde_json; do
        compgen -G "$crates_dir/$crate-[0-9]*/Cargo.toml" >/dev/null || missing+=("$crate")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        echo "crates missing from $crates_dir: ${missing[*]}: $install_hint" >&2
        return 1
    fi
}

# cargo's dev profile as the tests build it, without debug information and without incremental state: nothing in a
# test run or a smoke reads either, and leaving them out of the dependencies' build saves about a fifth of its time.
# build.sh --profile dev sets the same, so `cargo test` then reuses what it built.
dev_profile_env() {
    export CARGO_PROFILE_DEV_DEBUG=0 CARGO_INCREMENTAL=0
}

# Runs cargo in this directory, offline, with the crate directory supplied on the command line (it is
# machine-specific, so .cargo/config.toml leaves it out) and at low priority: the machine's cores are shared.
# Cargo.lock is resolved anew each time: it is not committed (README), and one written by another cargo may be in
# a lock-file format this one cannot read.
run_cargo() {
    rm -f "$rust_dir/Cargo.lock"
    local nice_cmd=()
    command -v nice >/dev/null 2>&1 && nice_cmd=(nice -n 10)
    (cd "$rust_dir" && "${nice_cmd[@]}" "$CARGO" --config "source.debian-packages.directory=\"$crates_dir\"" "$@")
}
