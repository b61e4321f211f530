#!/usr/bin/env bash
# The parlor's several-process tests and demo (docs/deploy.md) use a local Redis on 127.0.0.1:6379:
# install Debian's redis-server when missing, start it when it is down, wait until it answers.
set -euo pipefail
if ! command -v redis-server >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
    else
        echo "ensure_redis: redis-server is not installed (apt-get install redis-server)" >&2
        exit 1
    fi
fi
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
    redis-server --bind 127.0.0.1 --port 6379 --daemonize yes --save '' --appendonly no >/dev/null
    for _ in $(seq 1 30); do
        redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break
        sleep 0.2
    done
fi
redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null || { echo "ensure_redis: Redis does not answer on 127.0.0.1:6379" >&2; exit 1; }
