#!/usr/bin/env bash
# Builds the Rust baseline into bin/ingest-rust (git-ignored), release profile, offline, from Debian's packaged
# crates. Installs nothing, downloads nothing. Exit code 0 only when the binary was built; a binary that could not be
# rebuilt is removed, so the lab never runs a stale one.
#
# Usage: build.sh
set -euo pipefail

for arg in "$@"; do
    case "$arg" in
        -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "build.sh: unknown argument '$arg' (it takes none)" >&2; exit 2 ;;
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
if run_cargo build --release --bin ingest-rust; then
    cp "$rust_dir/target/release/ingest-rust" "$bin/ingest-rust.tmp"
    mv -f "$bin/ingest-rust.tmp" "$bin/ingest-rust"
    echo "built bin/ingest-rust (hyper front-end and back-end)"
else
    rm -f "$bin/ingest-rust"
    echo "NOT built: bin/ingest-rust: cargo build failed (see above)"
    exit 1
fi
