#!/usr/bin/env bash
# Installs (or updates) the Senet companion as a service on Raspberry Pi OS Bookworm.
#
#     sudo deploy/install.sh [--hardware gpio|serial|serial:PORT|sim] [--port N]
#                            [--hostname NAME | --keep-hostname] [--no-start]
#     deploy/install.sh --root DIR ...     (files only, into DIR: for images and for tests)
#
# Run it from a copy of the source (git clone or an unpacked release). Running it again
# updates the program and the service files and keeps the configuration. Every step is
# idempotent. What goes where:
#
#     /opt/senet-companion/venv                the program, in a virtual environment that also
#                                              sees Debian's python3-lgpio
#     /etc/senet-companion/config.toml         the configuration (written once, never replaced)
#     /etc/default/senet-companion             backend, address and port of the service
#     /etc/systemd/system/senet-companion.service
#     /etc/systemd/system/senet-companion-maintain.{service,timer}   the daily journal clean-up
#     /etc/systemd/journald.conf.d/senet-companion.conf               log size and rotation
#     /etc/avahi/services/senet-companion.service                     the page, announced
#     /var/lib/senet-companion                 the game journal (made by systemd)
set -euo pipefail

SOURCE="$(cd "$(dirname "$0")/.." && pwd)"
DEPLOY="$SOURCE/deploy"
PYTHON="${PYTHON:-/usr/bin/python3}"
SERVICE_USER="senet"
APT_PACKAGES=(python3-venv python3-lgpio avahi-daemon)

ARGUMENTS="$*"
ROOT=""
HARDWARE="gpio"
PORT="80"
NEW_HOSTNAME="senet"
START=1

say() { printf 'senet install: %s\n' "$*"; }
die() {
    printf 'senet install: %s\n' "$*" >&2
    exit 1
}

usage() {
    sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
    exit "${1:-0}"
}

while [ $# -gt 0 ]; do
    case "$1" in
    --root) ROOT="${2:?--root needs a directory}"; shift 2 ;;
    --hardware) HARDWARE="${2:?--hardware needs gpio, serial, serial:PORT or sim}"; shift 2 ;;
    --port) PORT="${2:?--port needs a number}"; shift 2 ;;
    --hostname) NEW_HOSTNAME="${2:?--hostname needs a name}"; shift 2 ;;
    --keep-hostname) NEW_HOSTNAME=""; shift ;;
    --no-start) START=0; shift ;;
    -h | --help) usage 0 ;;
    *) printf 'senet install: unknown option %s\n' "$1" >&2; usage 2 ;;
    esac
done

case "$HARDWARE" in
gpio | sim | serial | serial:?*) ;;
*) die "--hardware must be gpio, serial, serial:PORT or sim, not '$HARDWARE'" ;;
esac
case "$PORT" in
'' | *[!0-9]*) die "--port must be a number from 1 to 65535, not '$PORT'" ;;
esac
if [ "$PORT" -lt 1 ] || [ "$PORT" -gt 65535 ]; then
    die "--port must be a number from 1 to 65535, not '$PORT'"
fi
if [ -n "$NEW_HOSTNAME" ] && ! [[ "$NEW_HOSTNAME" =~ ^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$ ]]; then
    die "--hostname must be lower-case letters, digits and '-', like 'senet', not '$NEW_HOSTNAME'"
fi
[ -f "$SOURCE/pyproject.toml" ] && [ -f "$DEPLOY/senet-companion.service" ] ||
    die "run this script from the companion's source folder (deploy/install.sh), not a copy of it"

PREFIX="$ROOT/opt/senet-companion"
VENV="$PREFIX/venv"
ETC="$ROOT/etc/senet-companion"
CONFIG="$ETC/config.toml"
DEFAULTS="$ROOT/etc/default/senet-companion"
UNITS="$ROOT/etc/systemd/system"
JOURNALD="$ROOT/etc/systemd/journald.conf.d"
AVAHI="$ROOT/etc/avahi/services"

system() { [ -z "$ROOT" ]; }

if system; then
    [ "$(id -u)" -eq 0 ] || die "run it with sudo: sudo $0 $ARGUMENTS"
    # shellcheck disable=SC1091
    codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-unknown}")"
    case "$codename" in
    bookworm | trixie) ;;
    *) say "warning: made for Raspberry Pi OS Bookworm; this is '$codename', going on" ;;
    esac

    say "installing Debian packages: ${APT_PACKAGES[*]}"
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        "${APT_PACKAGES[@]}"; then
        apt-get update
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
            "${APT_PACKAGES[@]}"
    fi

    for group in gpio dialout; do
        getent group "$group" >/dev/null || groupadd --system "$group"
    done
    if ! id "$SERVICE_USER" >/dev/null 2>&1; then
        say "creating the service user $SERVICE_USER"
        useradd --system --user-group --home-dir /var/lib/senet-companion --no-create-home \
            --shell /usr/sbin/nologin "$SERVICE_USER"
    fi
    usermod --append --groups gpio,dialout "$SERVICE_USER"
fi

# The program: a virtual environment that also sees Debian's packages, because lgpio comes
# from Debian (python3-lgpio) and pip may not install into the system's Python.
if [ ! -x "$VENV/bin/python" ]; then
    say "creating the virtual environment $VENV"
    mkdir -p "$PREFIX"
    "$PYTHON" -m venv --system-site-packages "$VENV"
fi
say "installing the companion from $SOURCE"
# pip builds in the folder it is given: a clean copy keeps build leftovers out of the source
# (and stale ones out of the program).
build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT
tar -C "$SOURCE" --exclude='*/.*' --exclude=build --exclude='*.egg-info' -cf - . | tar -C "$build" -xf -
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade "$build"

# The configuration: written once, then it is the owner's.
install -d -m 0755 "$ETC" "$(dirname "$DEFAULTS")" "$UNITS" "$JOURNALD" "$AVAHI"
if [ ! -e "$CONFIG" ]; then
    say "writing $CONFIG"
    tmp="$(mktemp)"
    # The [hardware] tables come from the installed program's own default configuration.
    if "$VENV/bin/python" -c 'import sys
from hardware.config import default_config_text
sys.stdout.write(default_config_text())' >"$tmp" 2>/dev/null; then
        printf '\n' >>"$tmp"
    else
        : >"$tmp"
    fi
    cat "$DEPLOY/config.example.toml" >>"$tmp"
    install -m 0640 "$tmp" "$CONFIG"
    rm -f "$tmp"
else
    say "keeping $CONFIG"
fi
if [ ! -e "$DEFAULTS" ]; then
    say "writing $DEFAULTS (backend $HARDWARE, port $PORT)"
    cat >"$DEFAULTS" <<EOF
# Read by the senet-companion service and by senet-companion doctor.
# SENET_HARDWARE: gpio (the Raspberry Pi's pins), serial or serial:PORT (the USB board), sim.
SENET_HARDWARE=$HARDWARE
SENET_HOST=0.0.0.0
SENET_PORT=$PORT
# SENET_LOG_LEVEL=DEBUG
EOF
else
    say "keeping $DEFAULTS"
    # shellcheck disable=SC1090
    PORT="$(. "$DEFAULTS" && echo "${SENET_PORT:-80}")"
fi

# The service files: always replaced, they belong to the program.
install -m 0644 "$DEPLOY/senet-companion.service" "$UNITS/senet-companion.service"
install -m 0644 "$DEPLOY/senet-companion-maintain.service" "$UNITS/senet-companion-maintain.service"
install -m 0644 "$DEPLOY/senet-companion-maintain.timer" "$UNITS/senet-companion-maintain.timer"
install -m 0644 "$DEPLOY/journald-senet-companion.conf" "$JOURNALD/senet-companion.conf"
sed "s|<port>80</port>|<port>$PORT</port>|" "$DEPLOY/senet-companion.avahi.xml" >"$AVAHI/senet-companion.service"
chmod 0644 "$AVAHI/senet-companion.service"

if ! system; then
    say "files installed under $ROOT"
    exit 0
fi

chown root:"$SERVICE_USER" "$ETC" "$CONFIG"
chmod 0775 "$ETC"
# systemd makes it too (StateDirectory=); made now so the doctor below finds it even with --no-start.
install -d -o "$SERVICE_USER" -g "$SERVICE_USER" -m 0750 /var/lib/senet-companion

if [ -n "$NEW_HOSTNAME" ] && [ "$(hostname)" != "$NEW_HOSTNAME" ]; then
    old="$(hostname)"
    say "renaming this machine from $old to $NEW_HOSTNAME (phones will find http://$NEW_HOSTNAME.local/)"
    hostnamectl set-hostname "$NEW_HOSTNAME"
    sed -i "s/^127\.0\.1\.1[[:space:]].*$/127.0.1.1\t$NEW_HOSTNAME/" /etc/hosts
    grep -q "^127\.0\.1\.1" /etc/hosts || printf '127.0.1.1\t%s\n' "$NEW_HOSTNAME" >>/etc/hosts
fi

systemctl daemon-reload
systemctl restart systemd-journald
systemctl enable --now avahi-daemon
systemctl reload-or-restart avahi-daemon
systemctl enable senet-companion.service senet-companion-maintain.timer
systemctl start senet-companion-maintain.timer
if [ "$START" -eq 1 ]; then
    say "starting the service"
    systemctl restart senet-companion.service
fi

say "checking the machine as the service's user:"
runuser -u "$SERVICE_USER" -- "$VENV/bin/senet-companion" doctor --config "$CONFIG" || true
name="${NEW_HOSTNAME:-$(hostname)}"
url="http://$name.local/"
[ "$PORT" = "80" ] || url="http://$name.local:$PORT/"
say "done. Open $url on a phone in the same network."
say "logs: journalctl -u senet-companion -f"
