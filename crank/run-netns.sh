#!/usr/bin/env bash
# Runs one scenario of crank/ingest.benchmarks.yml across two "hosts" on this machine: two network namespaces
# joined by a veth pair, each with its own Crank agent, the controller in the root namespace as on a third machine.
# Proves the remote profile end to end (docs/remote-agents.md), then removes everything it made. Run as root:
#   crank/run-netns.sh <scenario> [extra crank arguments]
#
# Addresses come from 198.18.0.0/15, the range RFC 2544 reserves for benchmarking, so they clash with no real network:
#   198.18.0.1 (app) <-> 198.18.0.2 (load)   the private link the jobs talk over
#   198.18.1.1 (root) <-> 198.18.1.2 (app)   the controller's leg to the app agent (front-end, back-end, proxy)
#   198.18.2.1 (root) <-> 198.18.2.2 (load)  the controller's leg to the load agent
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/crank/lib.sh"
config=$root/crank/ingest.benchmarks.yml
# Crank reads the configuration's imports (crank/ingest.base.yml) from its working directory.
cd "$root" || exit 1
scenario=${1:?usage: crank/run-netns.sh <scenario> [crank arguments]}
shift

app_ns=ingest-crank-app load_ns=ingest-crank-load
app_leg=icr-app load_leg=icr-load    # the controller legs' root-namespace ends
app_agent=http://198.18.1.2:5010 load_agent=http://198.18.2.2:5010
server_address=198.18.0.1

if [ "$(id -u)" -ne 0 ]; then
    echo "crank/run-netns.sh makes network namespaces and veth pairs: run it as root." >&2
    exit 1
fi
crank_find_tools || exit

# The services the scenario has: Crank refuses --<service>.endpoints for a service the scenario lacks.
services=$(awk -v want="  $scenario:" '
    /^[^ #]/ { in_scenarios = ($0 == "scenarios:"); inside = 0; next }
    in_scenarios && /^  [^ ]/ { inside = ($0 == want); next }
    inside && /^    [^ ]/ { sub(/^ +/, ""); sub(/:.*/, ""); print }' "$config")
if [ -z "$services" ]; then
    echo "No scenario '$scenario' in $config (\`dotnet run --project benchmarks/Ingest.Lab -- list\` lists them)." >&2
    exit 2
fi

# Refuse to start over anything this script did not make: it deletes what it makes.
for ns in "$app_ns" "$load_ns"; do
    if ip netns list | awk '{print $1}' | grep -qx "$ns"; then
        echo "Network namespace $ns exists already (another run, or someone else's): delete it or wait." >&2
        exit 1
    fi
done
for link in "$app_leg" "$load_leg"; do
    if ip link show dev "$link" >/dev/null 2>&1; then
        echo "Network interface $link exists already (another run, or someone else's): delete it or wait." >&2
        exit 1
    fi
done
in_use=$(ip -4 -o addr show to 198.18.0.0/15; ip -4 route show root 198.18.0.0/15)
if [ -n "$in_use" ]; then
    echo "198.18.0.0/15 is in use in this namespace already: this script's addresses would clash with" >&2
    echo "$in_use" >&2
    exit 1
fi

made_ns=() made_links=() agents=() crank_pid="" work=""
# shellcheck disable=SC2317 # reached through the trap
cleanup() {
    local status=$?
    trap '' INT TERM    # finish cleaning even when asked twice,
    set +e              # and past whatever has gone already
    if [ -n "$crank_pid" ] && kill -TERM "$crank_pid" 2>/dev/null; then
        for _ in $(seq 1 50); do kill -0 "$crank_pid" 2>/dev/null || break; sleep 0.2; done
        kill -KILL "$crank_pid" 2>/dev/null
        wait "$crank_pid" 2>/dev/null
    fi
    # CRANK_AGENT_PID: an agent still starting when the signal came.
    for pid in "${agents[@]}" ${CRANK_AGENT_PID:-}; do crank_stop_agent "$pid"; done
    # The legs first, and synchronously: a namespace's veths go with it only when the kernel gets round to it, and a
    # run straight after this one would find them still there.
    for link in "${made_links[@]}"; do ip link del "$link" 2>/dev/null; done
    for ns in "${made_ns[@]}"; do
        # Nothing the agents started may outlive the run: a namespace lives on while a process is in it.
        ip netns pids "$ns" 2>/dev/null | xargs -r kill -KILL 2>/dev/null
        for _ in $(seq 1 50); do [ -z "$(ip netns pids "$ns" 2>/dev/null)" ] && break; sleep 0.1; done
        ip netns del "$ns"    # deletes the veths with it
    done
    made_ns=() made_links=() agents=() crank_pid="" CRANK_AGENT_PID=""
    [ -n "$work" ] && rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

publish=()
[[ $scenario == *aot* ]] && publish=(--aot)
bash "$root/crank/publish.sh" "${publish[@]}" || { echo "crank/publish.sh failed." >&2; exit 1; }

work=$(mktemp -d -t ingest-crank-netns.XXXXXX)
set -e
ip netns add "$app_ns"
made_ns+=("$app_ns")
ip netns add "$load_ns"
made_ns+=("$load_ns")
ip -n "$app_ns" link add priv type veth peer name priv netns "$load_ns"
ip link add "$app_leg" type veth peer name ctl netns "$app_ns"
made_links+=("$app_leg")
ip link add "$load_leg" type veth peer name ctl netns "$load_ns"
made_links+=("$load_leg")
ip -n "$app_ns" addr add 198.18.0.1/24 dev priv
ip -n "$load_ns" addr add 198.18.0.2/24 dev priv
ip addr add 198.18.1.1/24 dev "$app_leg"
ip -n "$app_ns" addr add 198.18.1.2/24 dev ctl
ip addr add 198.18.2.1/24 dev "$load_leg"
ip -n "$load_ns" addr add 198.18.2.2/24 dev ctl
ip link set "$app_leg" up
ip link set "$load_leg" up
for ns in "$app_ns" "$load_ns"; do
    for dev in lo priv ctl; do ip -n "$ns" link set "$dev" up; done
done
set +e

# The agents listen on their controller legs only: their API has no authentication and runs executables.
# --hostname: where the agent tells the controller its jobs listen, the namespace's private address.
crank_start_agent "$app_agent" "$work/app-agent.log" "$app_ns" --hostname "$server_address" || exit 1
agents+=("$CRANK_AGENT_PID")
crank_start_agent "$load_agent" "$work/load-agent.log" "$load_ns" --hostname 198.18.0.2 || exit 1
agents+=("$CRANK_AGENT_PID")

arguments=(--variable "serverAddress=$server_address" --variable "backendAddress=$server_address")
for service in $services; do
    endpoint=$app_agent
    [ "$service" = load ] && endpoint=$load_agent
    arguments+=("--$service.endpoints" "$endpoint" "--$service.selfContained" false)
done
mkdir -p "$root/crank/results"
result="$root/crank/results/$scenario-netns-$(date -u +%Y%m%d-%H%M%S).json"

# In the background and waited for, so that SIGTERM stops the run at once (bash runs a trap only between commands).
mkdir -p "$work/controller"
TMPDIR="$work/controller" crank --config "$config" --scenario "$scenario" --profile remote "${arguments[@]}" --json "$result" "$@" &
crank_pid=$!
wait "$crank_pid"
status=$?
crank_pid=""
if [ -s "$result" ]; then
    echo "Results: $result"
else
    echo "Crank wrote no results (exit status $status)." >&2
fi
exit "$status"
