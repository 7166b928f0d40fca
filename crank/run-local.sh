#!/usr/bin/env bash
# Runs scenarios of crank/ingest.benchmarks.yml on a Crank agent of its own on 127.0.0.1:5010, one after another,
# writes each one's JSON results into crank/results/ (git-ignored), stops the agent, and exits with crank's status
# (the first non-zero one when several ran).
#   crank/run-local.sh [--no-publish] <scenario>[,<scenario>...] [extra crank arguments, e.g. --variable duration=5]
# A scenario may be a shell pattern: 'classic-*', 'transports-*-json-*'.
# --no-publish: use what artifacts/crank/ holds already (crank/publish.sh builds it; --aot for the AOT scenarios).
# crank and crank-agent are found on PATH, in $CRANK_TOOLS, or in ~/.dotnet/tools (dotnet tool install -g).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
publish=1
if [ "${1:-}" = "--no-publish" ]; then publish=0; shift; fi
patterns=${1:?usage: crank/run-local.sh [--no-publish] <scenario>[,<scenario>...] [crank arguments]}
shift
agent_url=http://127.0.0.1:5010
config="$root/crank/ingest.benchmarks.yml"
# Crank reads the configuration's imports (crank/ingest.base.yml) from its working directory.
cd "$root" || exit 1

# The scenarios asked for, in the file's order; each pattern must match at least one.
all=$(sed -n '/^scenarios:$/,/^profiles:$/s/^  \([a-z0-9-]*\):$/\1/p' "$config")
scenarios=()
IFS=, read -ra wanted <<< "$patterns"
for pattern in "${wanted[@]}"; do
    matched=0
    for name in $all; do
        # shellcheck disable=SC2053 # the pattern is meant to glob
        if [[ $name == $pattern ]]; then
            matched=1
            [[ " ${scenarios[*]} " == *" $name "* ]] || scenarios+=("$name")
        fi
    done
    if [ "$matched" = 0 ]; then
        echo "No scenario '$pattern' in crank/ingest.benchmarks.yml (dotnet run --project benchmarks/Ingest.Lab -- list)." >&2
        exit 2
    fi
done

source "$root/crank/lib.sh"
crank_find_tools || exit

if [ "$publish" = 1 ]; then
    aot=(); case " ${scenarios[*]}" in *aot*) aot=(--aot) ;; esac
    bash "$root/crank/publish.sh" "${aot[@]}" || { echo "crank/publish.sh failed: nothing was run." >&2; exit 1; }
fi

# The agent's REST API runs whatever it is sent: loopback only, and never two agents on one port.
if (exec 3<>/dev/tcp/127.0.0.1/5010) 2>/dev/null; then
    echo "Something already listens on 127.0.0.1:5010 (another crank-agent?): stop it first." >&2
    exit 1
fi
work=$(mktemp -d)
CRANK_AGENT_PID=
cleanup() {
    [ -n "$CRANK_AGENT_PID" ] && crank_stop_agent "$CRANK_AGENT_PID"
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
crank_start_agent "$agent_url" "$work/agent.log" "" --hostname localhost || exit 1

mkdir -p "$root/crank/results"
final=0
for scenario in "${scenarios[@]}"; do
    result="$root/crank/results/$scenario-$(date -u +%Y%m%d-%H%M%S).json"
    # The controller would make every job self-contained (a runtime download); the apps are framework-dependent.
    framework=()
    for service in $(sed -n "/^  $scenario:\$/,/^  [^ ]/p" "$config" | sed -n 's/^    \([a-z0-9]*\):$/\1/p'); do
        framework+=("--$service.selfContained" false)
    done
    crank --config "$config" --scenario "$scenario" --profile local "${framework[@]}" --json "$result" "$@"
    status=$?
    if [ "$status" -eq 0 ] && [ -s "$result" ]; then
        echo "Results: $result"
    elif [ -s "$result" ]; then
        echo "$scenario: crank exited with $status; what it wrote before failing: $result" >&2
    else
        echo "$scenario: crank exited with $status and wrote no results." >&2
        [ "$status" -eq 0 ] && status=1
    fi
    [ "$final" -eq 0 ] && final=$status
done
exit "$final"
