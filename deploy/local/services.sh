#!/usr/bin/env bash
# Starts, stops and reports the seven platform services as local processes (built JS in dist/).
#   bash deploy/local/services.sh start|stop|status
# Settings from the environment (defaults from deploy/local/env.sh):
#   SERVICES_RUN_DIR   pid files                  <repo>/.stack/run
#   SERVICES_LOG_DIR   one log per service        <repo>/.stack/logs
#   HTTP_PORT, *_GRPC_ADDR                        the port each service listens on (the port of its address)
#   *_DATABASE_URL, MONGO_URL, …                  what env.sh exports
# A second set of services (e.g. a test's) runs beside the default one with its own run directory
# and ports. "Running" means: the pid file names a live, non-zombie process whose command line is
# this service's entry point; `start` starts every service that is not running, and reports ready
# only when each one answers its health check on its port and holds that port itself.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck disable=SC1091
source "$ROOT/deploy/local/env.sh"
# shellcheck disable=SC1091
source "$ROOT/deploy/local/lib/common.sh"
log() { printf '[services] %s\n' "$*"; }
die() {
  printf '[services] ERROR: %s\n' "$*" >&2
  exit 1
}

RUN="${SERVICES_RUN_DIR:-$ROOT/.stack/run}"
LOGS="${SERVICES_LOG_DIR:-$ROOT/.stack/logs}"
mkdir -p "$LOGS" "$RUN"

SERVICES=(identity apikeys notifications models workflows sandbox-worker observability gateway)

# The folder whose dist/main.js a process runs: the sandbox worker is the workflows image with
# PROCESS_ROLE=sandbox (docs/workflows.md "code").
folder_of() { if [ "$1" = sandbox-worker ]; then echo workflows; else echo "$1"; fi; }
entry() { printf '%s/services/%s/dist/main.js' "$ROOT" "$(folder_of "$1")"; }
upper() { printf '%s' "$1" | tr '[:lower:]-' '[:upper:]_'; }

# Whose service tokens each service checks: the callers its internal-only methods declare
# (services/<name>/src/grpc/internal-callers.ts; deploy/test/support/topology.ts SERVICE_CALLERS).
callers_of() {
  case "$1" in
    identity) echo gateway apikeys notifications models workflows ;;
    apikeys) echo gateway operator ;;
    models) echo agent-runtime workflows observability ;;
    workflows) echo apikeys observability ;;
    *) echo ;;
  esac
}

# A service gets its own service signing key (as SERVICE_SIGNING_PRIVATE_KEY; identity calls nobody
# and gets none) and the public keys of its callers; never another service's private key.
export_service_keys() {
  local name=$1 var caller own
  own="SERVICE_SIGNING_PRIVATE_KEY_$(upper "$name")"
  if [ "$name" != identity ]; then export SERVICE_SIGNING_PRIVATE_KEY="${!own}"; fi
  local keep=" "
  for caller in $(callers_of "$name"); do keep+="SERVICE_PUBLIC_KEY_$(upper "$caller") "; done
  for var in $(compgen -e); do
    case "$var" in
      SERVICE_SIGNING_PRIVATE_KEY_*) unset "$var" ;;
      SERVICE_PUBLIC_KEY_*) if [[ "$keep" != *" $var "* ]]; then unset "$var"; fi ;;
    esac
  done
}
pid_of() { if [ -f "$RUN/$1.pid" ]; then tr -dc '0-9' <"$RUN/$1.pid" || true; fi; }

addr_var() { printf '%s_GRPC_ADDR' "$(upper "$1")"; }

port_of() {
  if [ "$1" = gateway ]; then
    printf '%s' "$HTTP_PORT"
  else
    local var
    var="$(addr_var "$1")"
    printf '%s' "${!var##*:}"
  fi
}

# Not `kill -0`: a SIGKILLed service stays a zombie until its parent reaps it, and a pid file may
# name a pid the system has since given to another process.
running() {
  local pid
  pid="$(pid_of "$1")"
  [ -n "$pid" ] && pid_alive "$pid" "$(entry "$1")"
}

# Does process $1 hold the listening socket of TCP port $2?
holds_port() {
  local pid="$1" hex inode
  hex="$(printf '%04X' "$2")"
  for inode in $(awk -v p=":$hex" 'FNR > 1 && $4 == "0A" && substr($2, length($2) - 4) == p { print $10 }' \
    /proc/net/tcp /proc/net/tcp6 2>/dev/null); do
    if find "/proc/$pid/fd" -maxdepth 1 -lname "socket:\[$inode\]" 2>/dev/null | grep -q .; then return 0; fi
  done
  return 1
}

start_one() {
  local name=$1 port dbvar metricsvar
  if running "$name"; then return; fi
  rm -f "$RUN/$name.pid"
  [ -f "$(entry "$name")" ] || die "$(entry "$name") is missing: build first (pnpm run build)"
  port="$(port_of "$name")"
  if port_listening "$port"; then
    die "port $port of $name is held by another process: $(port_owner "$port" | tr '\n' ' ')— stop it or set \
$([ "$name" = gateway ] && echo HTTP_PORT || addr_var "$name") to another port"
  fi
  dbvar="$(upper "$name")_DATABASE_URL"
  if [ "$name" = sandbox-worker ]; then
    start_sandbox_worker "$port" "${SANDBOX_WORKER_METRICS_PORT:-0}"
    log "$name started (pid $(pid_of "$name"), port $port)"
    return
  fi
  (
    cd "$ROOT/services/$name"
    if [ "$name" = gateway ]; then export HTTP_PORT="$port"; else export GRPC_PORT="$port"; fi
    if [ -n "${!dbvar:-}" ]; then export DATABASE_URL="${!dbvar}"; fi
    metricsvar="$(upper "$name")_METRICS_PORT"
    export METRICS_PORT="${!metricsvar:-0}"
    # Only the gateway signs principals; only identity and the gateway hold SECRET_KEY (it signs
    # user JWTs). Models seals provider keys under its own MODELS_SECRET_KEY, given as SECRET_KEY.
    if [ "$name" != gateway ]; then unset PRINCIPAL_SIGNING_PRIVATE_KEY; fi
    export_service_keys "$name"
    case "$name" in
      identity | gateway) ;;
      models) export SECRET_KEY="$MODELS_SECRET_KEY" ;;
      *) unset SECRET_KEY ;;
    esac
    unset MODELS_SECRET_KEY
    case "$name" in identity | notifications) ;; *) unset TASK_SEAL_KEY ;; esac
    # Mail to a catcher on this machine (a developer's, or the API fuzzer's SMTP sink): the local
    # stack names loopback a private relay, as SMTP_PRIVATE_HOSTS does for a relay in a cluster.
    if [ "$name" = notifications ]; then export SMTP_PRIVATE_HOSTS="${SMTP_PRIVATE_HOSTS:-127.0.0.1,localhost}"; fi
    # Likewise an OpenID Connect provider on this machine (a developer's test IdP, the fuzzer's
    # issuer) is plain http://127.0.0.1; a deployment keeps the https-only default.
    if [ "$name" = identity ]; then export SSO_ALLOW_INSECURE_ISSUERS="${SSO_ALLOW_INSECURE_ISSUERS:-true}"; fi
    spawn "$LOGS/$name.log" node "$(entry "$name")" >"$RUN/$name.pid"
  )
  log "$name started (pid $(pid_of "$name"), port $port)"
}

# $1 its gRPC (health) port, $2 its metrics port. The process that runs user code gets Kafka and nothing else: no database, Redis, MongoDB, keys
# or addresses of other services (the same variables as its Kubernetes Deployment).
start_sandbox_worker() {
  (
    cd "$ROOT/services/workflows"
    local keep=" PATH HOME LANG TZ NODE_ENV LOG_LEVEL KAFKA_BROKERS KAFKA_SASL_MECHANISM KAFKA_SASL_USERNAME \
KAFKA_SASL_PASSWORD KAFKA_SSL KAFKA_TOPIC_MODE KAFKA_TOPIC_PARTITIONS QUEUE_TOPIC_PREFIX SANDBOX_CONCURRENCY "
    for var in $(compgen -e); do
      if [[ "$keep" != *" $var "* ]]; then unset "$var"; fi
    done
    export PROCESS_ROLE=sandbox GRPC_PORT="$1" METRICS_PORT="$2"
    spawn "$LOGS/sandbox-worker.log" node "$(entry sandbox-worker)" >"$RUN/sandbox-worker.pid"
  )
}

show_logs() {
  for name in "${SERVICES[@]}"; do
    echo "--- $name ($LOGS/$name.log)" >&2
    tail -n 15 "$LOGS/$name.log" >&2 2>/dev/null || true
  done
}

# Ready = every service answers its health check (wait-ready.mjs: gRPC health SERVING, gateway
# /api/v1/health 2xx), is still our process, and is the one holding its port.
wait_ready() {
  node "$ROOT/deploy/local/wait-ready.mjs" || {
    echo "services did not become ready; last log lines:" >&2
    show_logs
    return 1
  }
  local name bad=0
  for name in "${SERVICES[@]}"; do
    if ! running "$name"; then
      echo "$name is not running any more (pid file $RUN/$name.pid)" >&2
      bad=1
    elif ! holds_port "$(pid_of "$name")" "$(port_of "$name")"; then
      echo "$name (pid $(pid_of "$name")) does not hold port $(port_of "$name"): another process answered" >&2
      bad=1
    fi
  done
  if [ "$bad" = 1 ]; then
    show_logs
    return 1
  fi
}

cmd_start() {
  local started=$SECONDS name
  node "$ROOT/deploy/local/ensure-topics.mjs"
  for name in "${SERVICES[@]}"; do start_one "$name"; done
  wait_ready
  echo "services ready in $((SECONDS - started))s"
}

cmd_stop() {
  local name pid waited
  # The gateway (last to start) is the first to go.
  for name in gateway "${SERVICES[@]%gateway}"; do
    if [ -n "$name" ] && running "$name"; then kill -TERM "$(pid_of "$name")" 2>/dev/null || true; fi
  done
  for name in "${SERVICES[@]}"; do
    waited=0
    while running "$name" && [ $waited -lt 150 ]; do
      sleep 0.1
      waited=$((waited + 1))
    done
    pid="$(pid_of "$name")"
    if running "$name"; then kill -KILL "$pid" 2>/dev/null || true; fi
    rm -f "$RUN/$name.pid"
  done
  echo "services stopped"
}

cmd_status() {
  local all=0 name
  for name in "${SERVICES[@]}"; do
    if running "$name"; then
      printf '%-14s running  pid %-7s port %s\n' "$name" "$(pid_of "$name")" "$(port_of "$name")"
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
  *)
    echo "usage: $0 start|stop|status" >&2
    exit 2
    ;;
esac
