# shellcheck shell=bash
# Shared by the crank/run-*.sh scripts: finding the Crank tools, and starting and stopping an agent.
# Source it (`. crank/lib.sh`); it defines functions only, sets no shell options, and works under `set -e` too.

# crank_find_tools: makes `crank` and `crank-agent` callable, from PATH, else from $CRANK_TOOLS, else from
# ~/.dotnet/tools (where `dotnet tool install -g` puts them); otherwise says how to install them and returns 3.
crank_find_tools() {
    # The published tools target net8.0: on a machine with only .NET 10 they must roll forward.
    export DOTNET_ROLL_FORWARD=Major
    command -v crank >/dev/null && command -v crank-agent >/dev/null && return 0
    local dir
    for dir in ${CRANK_TOOLS:+"$CRANK_TOOLS"} "$HOME/.dotnet/tools"; do
        if [ -x "$dir/crank" ] && [ -x "$dir/crank-agent" ]; then
            export PATH="$dir:$PATH"
            return 0
        fi
    done
    cat >&2 <<MSG
crank and crank-agent were found neither on PATH, nor in \$CRANK_TOOLS (${CRANK_TOOLS:-unset}), nor in $HOME/.dotnet/tools.
Install them (DOTNET_ROLL_FORWARD=Major lets them run on .NET 10):
    dotnet tool install -g Microsoft.Crank.Controller --version 0.2.0-alpha.26316.1
    dotnet tool install -g Microsoft.Crank.Agent --version 0.2.0-alpha.26316.1
or point CRANK_TOOLS at the folder that holds both. The configuration alone is checked offline by:
    dotnet run --project benchmarks/Ingest.Lab -- crank --check
MSG
    return 3
}

# crank_start_agent URL LOG [NETNS [AGENT ARGUMENTS...]]: starts crank-agent in the background on URL (inside the
# network namespace NETNS unless it is empty), writing LOG and building in LOG's folder, and sets CRANK_AGENT_PID
# at once, so that a trap can stop it even while this waits. Returns when the agent says "Agent ready"; when it
# exits first or stays silent for CRANK_AGENT_TIMEOUT seconds (60 by default), prints its log, stops it, returns 1.
crank_start_agent() {
    local url=$1 log=$2 netns=${3:-}
    shift $(($# < 3 ? $# : 3))
    local home
    home=$(dirname "$log")/$(basename "$log" .log)
    mkdir -p "$home/build" "$home/tmp"
    local run=()
    if [ -n "$netns" ]; then run=(ip netns exec "$netns"); fi
    # setsid: the agent leads its own process group, so crank_stop_agent stops the jobs it started with it.
    # TMPDIR: the agent's and its jobs' temporary files stay in the caller's folder.
    TMPDIR="$home/tmp" setsid "${run[@]}" crank-agent --url "$url" --build-path "$home/build" "$@" >"$log" 2>&1 &
    CRANK_AGENT_PID=$!
    local deadline=$((SECONDS + ${CRANK_AGENT_TIMEOUT:-60}))
    until grep -q "Agent ready" "$log"; do
        if ! kill -0 "$CRANK_AGENT_PID" 2>/dev/null || [ "$SECONDS" -ge "$deadline" ]; then
            echo "The Crank agent on $url${netns:+ (network namespace $netns)} did not get ready; its log ($log):" >&2
            cat "$log" >&2
            crank_stop_agent "$CRANK_AGENT_PID"
            return 1
        fi
        sleep 0.2
    done
}

# crank_stop_agent PID: stops the agent started by crank_start_agent and every job it started (its process group):
# SIGTERM, then SIGKILL after 10 s, and reaps it. Harmless on a PID that has gone already.
crank_stop_agent() {
    local pid=$1
    kill -TERM -- "-$pid" 2>/dev/null || return 0
    local tries=50
    while kill -0 -- "-$pid" 2>/dev/null && [ $((tries -= 1)) -gt 0 ]; do sleep 0.2; done
    kill -KILL -- "-$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}
