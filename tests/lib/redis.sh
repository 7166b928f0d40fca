#!/usr/bin/env bash
# A throwaway Redis server on loopback, for the tests and the lab.
#   redis.sh start DIR PORT [--name value ...]   start redis-server on 127.0.0.1:PORT with DIR as its working
#                                               directory, wait until it answers PING
#   redis.sh stop DIR                            stop it (SIGTERM, then SIGKILL after 10 s), keep DIR
#   redis.sh destroy DIR                         stop it if running and delete DIR
# By default nothing is persisted (--save '' --appendonly no); later arguments override that, e.g.
# --appendonly yes --appendfsync always to keep streams across a stop and start.
set -euo pipefail

command=${1:-}
dir=${2:-}
if [ -z "$command" ] || [ -z "$dir" ]; then
    echo "usage: redis.sh start DIR PORT [--name value ...] | stop DIR | destroy DIR" >&2
    exit 2
fi

stop_server() {
    [ -f "$dir/redis.pid" ] || return 0
    local pid
    pid=$(cat "$dir/redis.pid")
    if kill -0 "$pid" 2>/dev/null; then
        kill -TERM "$pid"
        for _ in $(seq 1 100); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
    fi
    rm -f "$dir/redis.pid"
}

case "$command" in
start)
    port=${3:?redis.sh start needs a port}
    shift 3
    if ! command -v redis-server >/dev/null 2>&1; then
        echo "redis.sh: redis-server not found (Debian package redis-server)." >&2
        exit 3
    fi
    mkdir -p "$dir"
    # --daemonize no: the server is our child's child, its pid recorded here, so stop ends exactly it.
    (cd "$dir" && exec setsid redis-server --port "$port" --bind 127.0.0.1 --protected-mode yes \
        --save '' --appendonly no --daemonize no --dir "$dir" "$@" >"$dir/server.log" 2>&1) &
    echo $! >"$dir/redis.pid"
    for _ in $(seq 1 200); do
        if redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG; then
            exit 0
        fi
        if ! kill -0 "$(cat "$dir/redis.pid")" 2>/dev/null; then
            tail -n 20 "$dir/server.log" >&2
            exit 1
        fi
        sleep 0.05
    done
    echo "redis.sh: no PONG from 127.0.0.1:$port within 10 s" >&2
    tail -n 20 "$dir/server.log" >&2
    exit 1
    ;;
stop)
    stop_server
    ;;
destroy)
    stop_server
    rm -rf "$dir"
    ;;
*)
    echo "redis.sh: unknown command '$command'" >&2
    exit 2
    ;;
esac
