#!/bin/sh
# Installs what PyICU (the server extra's TR39 name checks, hkmahjong.server.names) builds
# against: ICU's headers and libraries (Debian's libicu-dev), pkg-config and a C++ compiler, with
# apt-get, when they are missing. `make` runs it before it installs the package into .venv.
set -eu
if pkg-config --exists icu-uc icu-i18n 2>/dev/null && command -v c++ >/dev/null 2>&1; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure_icu.sh: apt-get not found; install ICU's development files (libicu-dev), pkg-config and a C++ compiler yourself" >&2
    exit 1
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
        echo "ensure_icu.sh: not root and no sudo; run as root: apt-get install libicu-dev pkg-config g++" >&2
        exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends libicu-dev pkg-config g++
