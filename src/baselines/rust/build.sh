#!/usr/bin/env bash
# Builds the Rust baseline into bin/ingest-rust (git-ignored), offline, from Debian's packaged crates. Installs
# nothing, downloads nothing. Exit code 0 only when the binary was built; a binary that could not be rebuilt is
# removed, so the lab never runs a stale one.
#
# Usage: build.sh [--profile release|dev]
#   release (the default): whole-program optimisation, what every measurement runs.
#   dev: cargo's dev profile as test.sh builds it, for runs that check behaviour, not speed (the lab's smoke, CI):
#        a third of the release build's time, and the tests then reuse it.
set -euo pipefail

profile=release
while [ "$#" -gt 0 ]; do
    case "$1" in
        -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        --profile)
            case "${2:-}" in
                release|dev) profile=$2; shift 2 ;;
                *) echo "build.sh: --profile takes release or dev, not '${2:-}'" >&2; exit 2 ;;
            esac ;;
        *) echo "build.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done

# shellcheck source=env.sh
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
bin="$rust_dir/bin"

if ! find_cargo || ! find_crates; then
    rm -f "$bin/ingest-rust"
    echo "NOT built: bin/ingest-rust (see above)"
    exit 1
fi
echo "Rust: $CARGO ($("$CARGO" --version)), rustc ${RUSTC:-rustc} ($("${RUSTC:-rustc}" --version)), crates from $crates_dir"

mkdir -p "$bin"
if [ "$profile" = dev ]; then
    dev_profile_env
    build=(build --bin ingest-rust)
    target="$rust_dir/target/debug/ingest-rust"
else
    build=(build --release --bin ingest-rust)
    target="$rust_dir/target/release/ingest-rust"
fi
if run_cargo "${build[@]}"; then
    cp "$target" "$bin/ingest-rust.tmp"
    mv -f "$bin/ingest-rust.tmp" "$bin/ingest-rust"
    echo "built bin/ingest-rust (hyper front-end and back-end, $profile profile)"
else
    rm -f "$bin/ingest-rust"
    echo "NOT built: bin/ingest-rust: cargo build failed (see above)"
    exit 1
fi
