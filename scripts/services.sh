#!/usr/bin/env bash
# The real servers the tests of durable runs and scale-out talk to: PostgreSQL and Redis from
# Debian's packages, each on 127.0.0.1 on a free port with its own data directory.
#
#   scripts/services.sh install          installs what is missing (apt-get; needs root)
#   eval "$(scripts/services.sh start)"  starts both, prints the variables the tests read:
#                                        PLANLOOP_POSTGRES_URL, PLANLOOP_REDIS_URL
#   scripts/services.sh stop             stops both and removes their data
#
# The data lives in $PLANLOOP_SERVICES_DIR (default .services/ in the repository); `stop`
# reads the same directory, so start and stop must see the same value.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${PLANLOOP_SERVICES_DIR:-$root/.services}"

postgres_bin() {
  local found
  found="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
  [ -n "$found" ] && [ -x "$found/postgres" ] && echo "$found"
}

free_port() {
  node -e 'const s = require("node:net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

# PostgreSQL refuses to run as root: as root, its files belong to the postgres user and it runs as them.
as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

install() {
  local missing=()
  postgres_bin >/dev/null || missing+=(postgresql)
  command -v redis-server >/dev/null || missing+=(redis-server)
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing ${missing[*]}" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  # The packages start their own servers on the default ports; the tests use their own.
  service postgresql stop >/dev/null 2>&1 || true
  service redis-server stop >/dev/null 2>&1 || true
}

start_postgres() {
  local bin port data="$dir/postgres"
  bin="$(postgres_bin)" || { echo "PostgreSQL is not installed: run scripts/services.sh install" >&2; return 1; }
  port="$(free_port)"
  mkdir -p "$data"
  [ "$(id -u)" = 0 ] && chown postgres "$dir" "$data"
  as_postgres "$bin/initdb" -D "$data/db" -U planloop --auth=trust -E UTF8 --no-locale >"$dir/postgres-init.log" 2>&1 \
    || { cat "$dir/postgres-init.log" >&2; return 1; }
  as_postgres "$bin/pg_ctl" -D "$data/db" -l "$data/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $data -c max_connections=200" start >/dev/null \
    || { cat "$data/server.log" >&2; return 1; }
  echo "export PLANLOOP_POSTGRES_URL=postgres://planloop@127.0.0.1:$port/postgres"
}

start_redis() {
  local port data="$dir/redis"
  command -v redis-server >/dev/null || { echo "Redis is not installed: run scripts/services.sh install" >&2; return 1; }
  port="$(free_port)"
  mkdir -p "$data"
  redis-server --bind 127.0.0.1 --port "$port" --dir "$data" --save "" --appendonly no \
    --daemonize yes --pidfile "$data/redis.pid" --logfile "$data/server.log" >/dev/null
  for _ in $(seq 1 100); do
    redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null 2>&1 && break
    sleep 0.1
  done
  redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null || { cat "$data/server.log" >&2; return 1; }
  echo "$port" >"$data/port"
  echo "export PLANLOOP_REDIS_URL=redis://127.0.0.1:$port"
}

stop() {
  local bin
  if [ -d "$dir/postgres/db" ] && bin="$(postgres_bin)"; then
    as_postgres "$bin/pg_ctl" -D "$dir/postgres/db" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  if [ -f "$dir/redis/redis.pid" ]; then
    local pid
    pid="$(cat "$dir/redis/redis.pid")"
    kill "$pid" 2>/dev/null || true
    # Redis writes its log as it shuts down: the folder goes once it has exited (at most 5 s).
    for _ in $(seq 1 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
  fi
  rm -rf "$dir"
}

case "${1:-}" in
  install) install ;;
  start)
    stop
    mkdir -p "$dir"
    start_postgres
    start_redis
    ;;
  stop) stop ;;
  *)
    echo "usage: scripts/services.sh install | start | stop" >&2
    exit 2
    ;;
esac
