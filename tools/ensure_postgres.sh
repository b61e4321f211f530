#!/usr/bin/env bash
# The parlor's tests run against a real local PostgreSQL (docs/server.md): install it when missing
# (Debian's package), start the cluster when it is down, wait until it accepts connections.
set -euo pipefail
if ! command -v pg_ctlcluster >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    else
        echo "ensure_postgres: PostgreSQL is not installed (apt-get install postgresql)" >&2
        exit 1
    fi
fi
version="$(ls /etc/postgresql | sort -V | tail -1)"
if ! pg_isready -q -h 127.0.0.1 -p 5432; then
    pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
    for _ in $(seq 1 30); do
        pg_isready -q -h 127.0.0.1 -p 5432 && break
        sleep 1
    done
fi
pg_isready -h 127.0.0.1 -p 5432 >/dev/null || { echo "ensure_postgres: PostgreSQL does not answer on 127.0.0.1:5432" >&2; exit 1; }
