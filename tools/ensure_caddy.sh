#!/usr/bin/env bash
# tests/ops/test_tls.py puts Caddy in front of hkmj serve (docs/operations.md, "TLS in front"):
# install Debian's caddy package when it is missing. The package's own service is not needed (the
# test runs its own caddy on loopback ports with its internal CA).
set -euo pipefail
if ! command -v caddy >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq caddy >/dev/null
    else
        echo "ensure_caddy: caddy is not installed (apt-get install caddy)" >&2
        exit 1
    fi
fi
caddy version >/dev/null
