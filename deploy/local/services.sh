#!/usr/bin/env bash
# Starts, stops and reports the seven platform services as local processes (built JS in dist/),
# with logs in .stack/logs/<service>.log and pids in .stack/run/<service>.pid.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck disable=SC1091
source "$ROOT/deploy/local/env.sh"
LOGS="$ROOT/.stack/logs"
RUN="$ROOT/.stack/run"
mkdir -p "$LOGS" "$RUN"

# name:grpc-port:database-url-variable (gateway is HTTP and listed apart)
DOMAIN_SERVICES=(
  "identity:50061:IDENTITY_DATABASE_URL"
  "apikeys:50062:APIKEYS_DATABASE_URL"
  "notifications:50063:"
  "models:50064:MODELS_DATABASE_URL"
  "workflows:50065:WORKFLOWS_DATABASE_URL"
  "observability:50066:OBSERVABILITY_DATABASE_URL"
)

running() {
  local pidfile="$RUN/$1.pid"
  [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null
}

start_one() {
  local name=$1 port=$2 dbvar=$3
  if running "$name"; then return; fi
  (
    cd "$ROOT/services/$name"
    export GRPC_PORT="$port"
    if [ -n "$dbvar" ]; then export DATABASE_URL="${!dbvar}"; fi
    # Only the gateway signs principals; only identity (and the gateway) hold SECRET_KEY.
    unset PRINCIPAL_SIGNING_PRIVATE_KEY
    if [ "$name" != identity ]; then unset SECRET_KEY; fi
    exec node dist/main.js >>"$LOGS/$name.log" 2>&1
  ) &
  echo $! >"$RUN/$name.pid"
}

wait_ready() {
  node "$ROOT/deploy/local/wait-ready.mjs" || {
    echo "services did not become ready; last log lines:" >&2
    for spec in "${DOMAIN_SERVICES[@]}" gateway; do
      local name=${spec%%:*}
      echo "--- $name ($LOGS/$name.log)" >&2
      tail -n 15 "$LOGS/$name.log" >&2 2>/dev/null || true
    done
    return 1
  }
}

cmd_start() {
  local started=$SECONDS
  node "$ROOT/deploy/local/ensure-topics.mjs"
  for spec in "${DOMAIN_SERVICES[@]}"; do
    IFS=: read -r name port dbvar <<<"$spec"
    start_one "$name" "$port" "$dbvar"
  done
  if ! running gateway; then
    (cd "$ROOT/services/gateway" && exec node dist/main.js >>"$LOGS/gateway.log" 2>&1) &
    echo $! >"$RUN/gateway.pid"
  fi
  wait_ready
  echo "services ready in $((SECONDS - started))s"
}

cmd_stop() {
  for spec in gateway "${DOMAIN_SERVICES[@]}"; do
    local name=${spec%%:*} pidfile="$RUN/${spec%%:*}.pid"
    if running "$name"; then
      kill -TERM "$(cat "$pidfile")" 2>/dev/null || true
    fi
  done
  for spec in gateway "${DOMAIN_SERVICES[@]}"; do
    local name=${spec%%:*} pidfile="$RUN/${spec%%:*}.pid" waited=0
    while running "$name" && [ $waited -lt 150 ]; do sleep 0.1; waited=$((waited + 1)); done
    if running "$name"; then kill -KILL "$(cat "$pidfile")" 2>/dev/null || true; fi
    rm -f "$pidfile"
  done
  echo "services stopped"
}

cmd_status() {
  local all=0
  for spec in "${DOMAIN_SERVICES[@]}" "gateway:${HTTP_PORT}:"; do
    IFS=: read -r name port _ <<<"$spec"
    if running "$name"; then
      printf '%-14s running  pid %-7s port %s\n' "$name" "$(cat "$RUN/$name.pid")" "$port"
    else
      printf '%-14s stopped\n' "$name"
      all=1
    fi
  done
  return $all
}

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
