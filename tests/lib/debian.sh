# Shared by the README's commands: install the Debian packages a run needs, when they are missing.
# Usage: source tests/lib/debian.sh; ensure_debian_packages wrk nginx ...
# Installs as root, or through sudo when that works without a password; otherwise says what is missing.
# Returns non-zero when something could not be installed, so callers decide whether that is fatal.

ensure_debian_packages() {
    local missing=()
    local package
    for package in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$package")
        fi
    done
    [ ${#missing[@]} -eq 0 ] && return 0

    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
            sudo="sudo -n"
        else
            echo "Missing Debian packages (${missing[*]}) and no root or password-less sudo to install them." >&2
            return 1
        fi
    fi

    echo "Installing Debian packages: ${missing[*]}"
    if ! $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/tmp/ingest-apt.log 2>&1; then
        # The package lists may be missing or stale on a fresh machine: refresh once and retry.
        $sudo apt-get update -q >>/tmp/ingest-apt.log 2>&1
        if ! $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >>/tmp/ingest-apt.log 2>&1; then
            echo "Could not install: ${missing[*]} (see /tmp/ingest-apt.log)." >&2
            return 1
        fi
    fi
}
