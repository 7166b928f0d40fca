#!/usr/bin/env bash
# A throwaway PostgreSQL server on loopback, for the tests and the lab. Never touches a system cluster.
#   postgres.sh start DIR PORT [-c name=value ...]   initdb into DIR when it is empty, start on 127.0.0.1:PORT, wait until ready
#   postgres.sh stop DIR                             stop the server (fast shutdown), keep DIR: start it again later
#   postgres.sh destroy DIR                          stop the server if running and delete DIR
# The server listens on 127.0.0.1 only (no Unix socket), trusts loopback connections, and has the superuser
# "ingest": connect with Host=127.0.0.1;Port=PORT;Username=ingest;Database=postgres.
# PostgreSQL refuses to run as root: as root, every server command runs as the "postgres" user (created by
# Debian's postgresql package) and DIR is handed to it.
set -euo pipefail

bin=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
if [ -z "$bin" ] || [ ! -x "$bin/pg_ctl" ]; then
    echo "postgres.sh: PostgreSQL server binaries not found (Debian package postgresql)." >&2
    exit 3
fi

as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

command=${1:-}
dir=${2:-}
if [ -z "$command" ] || [ -z "$dir" ]; then
    echo "usage: postgres.sh start DIR PORT [-c name=value ...] | stop DIR | destroy DIR" >&2
    exit 2
fi

case "$command" in
start)
    port=${3:?postgres.sh start needs a port}
    shift 3
    mkdir -p "$dir"
    if [ "$(id -u)" -eq 0 ]; then
        chown postgres: "$dir"
        chmod 700 "$dir"
        if ! runuser -u postgres -- test -x "$dir"; then
            echo "postgres.sh: the postgres user cannot reach $dir: choose a directory whose parents it can enter (e.g. directly under /tmp)." >&2
            exit 1
        fi
    fi
    if [ ! -f "$dir/PG_VERSION" ]; then
        # --no-sync: a throwaway cluster need not survive a machine crash during initdb.
        as_owner "$bin/initdb" -D "$dir" --username=ingest --auth=trust --encoding=UTF8 --locale=C --no-sync >"$dir.initdb.log" 2>&1 \
            || { cat "$dir.initdb.log" >&2; exit 1; }
        rm -f "$dir.initdb.log"
    fi
    options="-h 127.0.0.1 -p $port -c unix_socket_directories='' -c listen_addresses=127.0.0.1"
    for extra in "$@"; do
        options="$options $extra"
    done
    # -w waits until the server accepts connections; the log stays in DIR for a failure report.
    if ! as_owner "$bin/pg_ctl" start -D "$dir" -w -t 60 -l "$dir/server.log" -o "$options" >/dev/null; then
        tail -n 20 "$dir/server.log" >&2 || true
        exit 1
    fi
    ;;
stop)
    if [ -f "$dir/postmaster.pid" ]; then
        as_owner "$bin/pg_ctl" stop -D "$dir" -m fast -w -t 60 >/dev/null
    fi
    ;;
destroy)
    if [ -f "$dir/postmaster.pid" ]; then
        as_owner "$bin/pg_ctl" stop -D "$dir" -m immediate -w -t 60 >/dev/null || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "postgres.sh: unknown command '$command'" >&2
    exit 2
    ;;
esac
