#!/bin/sh
# Installs the browser the browser tests drive (Debian's chromium) and a CJK font, with apt-get,
# when /usr/bin/chromium is missing. Playwright's own browser download is not used.
# Run as root (CI) or with sudo available. `make browser` runs it before the browser tests.
set -eu
if [ -x /usr/bin/chromium ] && fc-list 2>/dev/null | grep -qi "noto.*cjk"; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install_browser.sh: apt-get not found; install chromium and a CJK font (e.g. fonts-noto-cjk) yourself" >&2
    exit 1
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
        echo "install_browser.sh: not root and no sudo; run as root: apt-get install chromium fonts-noto-cjk" >&2
        exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends chromium fonts-noto-cjk
