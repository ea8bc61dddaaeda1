#!/usr/bin/env bash
# Makes sure Prometheus and promtool of $PROMETHEUS_VERSION are available and prints the directory
# holding both (stdout):
#
#   dir="$(bash deploy/tools/install-prometheus.sh)"; "$dir/promtool" check rules …
#
# Reuses ~/.cache/agent-platform/go-bin when both binaries there were built from
# github.com/prometheus/prometheus at $PROMETHEUS_VERSION (`go install` stamps no version into
# `--version`, so the module version recorded in the binary is read with `go version -m`);
# otherwise builds them there from the Go module (about 4 minutes on a fresh machine).
set -euo pipefail

PROMETHEUS_VERSION=v0.316.0
MODULE=github.com/prometheus/prometheus
CACHE_DIR="${AGENT_PLATFORM_CACHE_DIR:-$HOME/.cache/agent-platform}"
BIN_DIR="$CACHE_DIR/go-bin"

say() { printf '[prometheus] %s\n' "$*" >&2; }

go="$(command -v go 2>/dev/null || true)"
[ -n "$go" ] || { [ -x /usr/local/go/bin/go ] && go=/usr/local/go/bin/go; }
# Written once the binaries are known to be $PROMETHEUS_VERSION: lets a machine without Go reuse them.
MARKER="$BIN_DIR/.prometheus.version"

# The module version the binary was built from, or nothing.
built_version() {
  [ -x "$1" ] || return 0
  "$go" version -m "$1" 2>/dev/null | awk -v m="$MODULE" '$1 == "mod" && $2 == m { print $3 }'
}
current() {
  "$BIN_DIR/promtool" --version >/dev/null 2>&1 && "$BIN_DIR/prometheus" --version >/dev/null 2>&1 || return 1
  if [ -z "$go" ]; then
    [ "$(cat "$MARKER" 2>/dev/null)" = "$PROMETHEUS_VERSION" ]
    return
  fi
  [ "$(built_version "$BIN_DIR/prometheus")" = "$PROMETHEUS_VERSION" ] &&
    [ "$(built_version "$BIN_DIR/promtool")" = "$PROMETHEUS_VERSION" ]
}

mkdir -p "$BIN_DIR"
exec 8>"$CACHE_DIR/.prometheus.lock"
flock -w 900 8 || { say "another install holds $CACHE_DIR/.prometheus.lock"; exit 1; }

if ! current; then
  [ -n "$go" ] || {
    say "no Go toolchain to build prometheus and promtool $PROMETHEUS_VERSION: install a Go toolchain (https://go.dev/dl), or set PROMTOOL and PROMETHEUS"
    exit 1
  }
  say "building prometheus and promtool $PROMETHEUS_VERSION into $BIN_DIR (a few minutes)"
  GOBIN="$BIN_DIR" GOFLAGS=-mod=mod "$go" install \
    "$MODULE/cmd/prometheus@$PROMETHEUS_VERSION" "$MODULE/cmd/promtool@$PROMETHEUS_VERSION" >&2
  current || { say "the built binaries do not report $MODULE $PROMETHEUS_VERSION"; exit 1; }
fi
printf '%s\n' "$PROMETHEUS_VERSION" >"$MARKER"
printf '%s\n' "$BIN_DIR"
