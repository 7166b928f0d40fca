#!/usr/bin/env bash
# Crank job helper: runs nginx or Caddy as a reverse proxy in front of the front-end instance(s), with a
# configuration written into the job's own folder, and prints "Proxy started." once it accepts connections.
#   proxy.sh nginx|caddy <listen host:port> <upstream host:port>[,<upstream host:port>...]
set -euo pipefail
kind=$1 listen=$2 upstreams=$3
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
# Say why the scenario cannot run on this agent, rather than failing on a missing command.
if ! command -v "$kind" >/dev/null; then
    echo "$kind is not installed on this agent's machine: install it (Debian: apt-get install $kind) to run this scenario." >&2
    exit 1
fi

if [ "$kind" = nginx ]; then
    servers=""
    IFS=, read -ra list <<< "$upstreams"
    for upstream in "${list[@]}"; do servers+="        server $upstream;"$'\n'; done
    mkdir -p nginx
    cat > nginx/nginx.conf <<CONF
daemon off;
worker_processes auto;
pid $here/nginx/nginx.pid;
error_log $here/nginx/error.log warn;
events { worker_connections 8192; multi_accept on; }
http {
    access_log off;
    client_body_temp_path $here/nginx/body;
    proxy_temp_path $here/nginx/proxy;
    upstream frontends {
$servers        keepalive 512;
    }
    server {
        listen $listen reuseport;
        keepalive_requests 1000000;
        location / {
            proxy_pass http://frontends;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_buffering off;
        }
    }
}
CONF
    nginx -p "$here/nginx" -c "$here/nginx/nginx.conf" -e "$here/nginx/error.log" &
else
    # Only directives Caddy 2.6 (Debian 12) knows: it refuses a whole Caddyfile for one it does not (persist_config
    # is newer), so the copy of the configuration Caddy saves on load lands in caddy/caddy/autosave.json, in the job's
    # folder like the rest of its state. `bind`: listen on that address only, as nginx's `listen` does.
    mkdir -p caddy
    cat > caddy/Caddyfile <<CONF
{
    admin off
    auto_https off
}
http://$listen {
    bind ${listen%:*}
    reverse_proxy ${upstreams//,/ }
}
CONF
    HOME="$here/caddy" XDG_CONFIG_HOME="$here/caddy" XDG_DATA_HOME="$here/caddy" caddy run --config caddy/Caddyfile --adapter caddyfile &
fi
proxy=$!
trap 'kill $proxy 2>/dev/null; wait $proxy 2>/dev/null' EXIT TERM INT
host=${listen%:*} port=${listen##*:}
for _ in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null; then echo "Proxy started."; break; fi
    sleep 0.1
done
wait $proxy
