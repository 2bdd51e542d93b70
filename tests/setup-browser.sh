#!/usr/bin/env bash
# Make sure Debian's Chromium is present for the browser tests (Playwright drives it by path;
# Playwright's own browser download is not used). Idempotent and quick when already installed.
set -euo pipefail
CHROMIUM="${SENET_CHROMIUM:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
    exit 0
fi
if [ "$(id -u)" = "0" ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq chromium >/dev/null
    exit 0
fi
echo "setup-browser: $CHROMIUM is missing; install it with 'sudo apt-get install chromium'" \
     "(the browser tests fail under CI=true and are skipped otherwise)" >&2
exit 0
