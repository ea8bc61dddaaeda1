# shellcheck shell=bash
# Shared helpers for deploy/local/stack.sh (sourced by it, not run on its own): logging, timing,
# process and pid-file checks, port checks, waiting, detached starts and the state-dir lock.
# Reads the settings (ports, STACK_DIR, LOG_DIR, RUN_DIR, REPO_ROOT) from stack.sh.

# --- logging and timing -----------------------------------------------------------------------
log() { printf '[stack] %s\n' "$*"; }
warn() { printf '[stack] WARNING: %s\n' "$*" >&2; }
die() {
  printf '[stack] ERROR: %s\n' "$*" >&2
  exit 1
}
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1fs", b - a }'; }
have() { command -v "$1" >/dev/null 2>&1; }
is_root() { [ "$(id -u)" -eq 0 ]; }

# run a step and report how long it took
timed() {
  local label="$1"
  shift
  local t0
  t0="$(now)"
  "$@"
  log "$label done in $(elapsed "$t0")"
}

# --- ports ------------------------------------------------------------------------------------
# Is anything listening on TCP $1 (any local address, IPv4 or IPv6)?
port_listening() {
  local hex
  hex="$(printf '%04X' "$1")"
  awk -v p=":$hex" 'FNR > 1 && $4 == "0A" && substr($2, length($2) - 4) == p { found = 1 } END { exit !found }' \
    /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

# Human-readable description of whoever holds TCP port $1.
port_owner() {
  if have ss; then
    ss -Hltnp "sport = :$1" 2>/dev/null | awk 'NR <= 3 { $1 = $1; print }' || true
  fi
}

# Refuse to start a server whose port(s) someone else holds.
check_ports_free() {
  local name="$1" port
  shift
  for port in "$@"; do
    if port_listening "$port"; then
      die "port $port (wanted by $name) is already in use by another process: \
$(port_owner "$port" | tr '\n' ' ')— stop it or free the port, then re-run"
    fi
  done
}

# --- processes and pid files ------------------------------------------------------------------
proc_cmdline() { tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null || true; }

# pid_alive PID PATTERN: the process exists and its command line contains PATTERN
pid_alive() {
  local pid="$1" pattern="$2"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  [ -d "/proc/$pid" ] || return 1
  local state
  state="$(awk '/^State:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)"
  [ "$state" != "Z" ] || return 1
  [[ "$(proc_cmdline "$pid")" == *"$pattern"* ]]
}

pidfile() { printf '%s/%s.pid' "$RUN_DIR" "$1"; }
read_pid() {
  if [ -f "$(pidfile "$1")" ]; then tr -dc '0-9' <"$(pidfile "$1")" || true; fi
}

# --- waiting, starting, stopping --------------------------------------------------------------
# wait_until TIMEOUT CHECK... : poll CHECK every 0.25s
wait_until() {
  local timeout="$1"
  shift
  local deadline=$((SECONDS + timeout))
  while ! "$@"; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.25
  done
}

log_tail() {
  local f="$1"
  if [ -f "$f" ]; then
    printf -- '----- last lines of %s -----\n' "$f" >&2
    tail -n 25 "$f" >&2 || true
    printf -- '-----\n' >&2
  fi
}

fail_start() { # name logfile message
  log_tail "$2"
  die "$1 did not come up: $3 (full log: $2)"
}

# Start a command detached (own session, no stdin) with output appended to a log; prints its pid.
spawn() {
  local logfile="$1"
  shift
  # 8/9 are our lock descriptors: a long-lived server must not inherit them
  setsid "$@" </dev/null >>"$logfile" 2>&1 8>&- 9>&- &
  printf '%s' "$!"
}

byte_size() { stat -c %s "$1" 2>/dev/null || echo 0; }

stop_pid() { # name pid timeout
  local name="$1" pid="$2" timeout="$3"
  kill -TERM "$pid" 2>/dev/null || return 0
  if ! wait_until "$timeout" bash -c "! [ -d /proc/$pid ] || grep -q '^State:.*Z' /proc/$pid/status"; then
    warn "$name (pid $pid) did not stop within ${timeout}s; killing it"
    kill -KILL "$pid" 2>/dev/null || true
    wait_until 10 bash -c "! [ -d /proc/$pid ]" || true
  fi
}

# --- the state-dir lock -----------------------------------------------------------------------
# Concurrent stack.sh runs against the same STACK_DIR are serialized (fd 9, held until exit).
stack_lock() {
  mkdir -p "$STACK_DIR" "$LOG_DIR" "$RUN_DIR"
  exec 9>"$RUN_DIR/.lock"
  flock -w 300 9 || die "another stack.sh is running against $STACK_DIR (lock $RUN_DIR/.lock)"
}

# --- the overridable settings -----------------------------------------------------------------
# STACK_*_PORT and STACK_DIR come from the environment: check them before anything is started, or
# deleted by 'reset'.
check_settings() {
  local pair var port seen=" " dir
  for pair in "STACK_PG_PORT=$PG_PORT" "STACK_REDIS_PORT=$REDIS_PORT" "STACK_KAFKA_PORT=$KAFKA_PORT" \
    "STACK_KAFKA_CONTROLLER_PORT=$KAFKA_CONTROLLER_PORT" "STACK_FERRETDB_PORT=$FERRETDB_PORT" \
    "STACK_PROMETHEUS_PORT=$PROMETHEUS_PORT" "STACK_JAEGER_OTLP_PORT=$JAEGER_OTLP_PORT" \
    "STACK_JAEGER_QUERY_PORT=$JAEGER_QUERY_PORT" "STACK_JAEGER_QUERY_GRPC_PORT=$JAEGER_QUERY_GRPC_PORT"; do
    var="${pair%%=*}"
    port="${pair#*=}"
    if ! [[ "$port" =~ ^[1-9][0-9]{0,4}$ ]] || [ "$port" -gt 65535 ]; then
      die "$var=$port is not a TCP port (1-65535)"
    fi
    [[ "$seen" != *" $port "* ]] || die "$var=$port: port $port is already taken by another server of the stack"
    seen="$seen$port "
  done
  # 'reset' deletes STACK_DIR: never the checkout, one of its parents or the home directory
  dir="$(realpath -m -- "$STACK_DIR")"
  case "$(realpath -m -- "$REPO_ROOT")/" in
    "${dir%/}/"*) die "STACK_DIR=$STACK_DIR contains the repository; use a directory of its own" ;;
  esac
  [ "$dir" != "$(realpath -m -- "$HOME")" ] || die "STACK_DIR=$STACK_DIR is the home directory; use a directory of its own"
}
