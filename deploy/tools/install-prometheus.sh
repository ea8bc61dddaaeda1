#!/usr/bin/env bash
# Makes sure Prometheus and promtool v0.316.0 (github.com/prometheus/prometheus/cmd/{prometheus,
# promtool}) are available and prints the directory holding both:
#
#   bash deploy/tools/install-prometheus.sh   # -> ~/.cache/agent-platform/go-bin
#
# Reuses them when `--version` (or, for a `go install` build, whose version fields are empty,
# `go version -m`) says v0.316.0; else `GOBIN=<dir> go install …@v0.316.0` (a few minutes once).
set -euo pipefail

CACHE_DIR="${AGENT_PLATFORM_CACHE_DIR:-$HOME/.cache/agent-platform}"
MODULE=github.com/prometheus/prometheus
VERSION=v0.316.0
DIR="$CACHE_DIR/go-bin"

say() { printf '[prometheus] %s\n' "$*" >&2; }

go="$(command -v go 2>/dev/null || true)"
[ -n "$go" ] || { [ -x /usr/local/go/bin/go ] && go=/usr/local/go/bin/go; }

is_version() { # binary (outputs captured first: with pipefail, `grep -q` closing a pipe early could fail)
  local out
  [ -x "$1" ] || return 1
  out="$("$1" --version 2>&1 || true)"
  grep -q "version ${VERSION#v}" <<<"$out" && return 0
  [ -n "$go" ] || return 1
  out="$("$go" version -m "$1" 2>/dev/null)" || return 1
  grep -Eq "^[[:space:]]+mod[[:space:]]+$MODULE[[:space:]]+$VERSION([[:space:]]|$)" <<<"$out"
}

mkdir -p "$DIR"
exec 9>"$CACHE_DIR/.prometheus.lock"
flock -w 1800 9 || { say "another install holds $CACHE_DIR/.prometheus.lock"; exit 1; }

if ! is_version "$DIR/prometheus" || ! is_version "$DIR/promtool"; then
  [ -n "$go" ] || { say "no Go toolchain to install Prometheus $VERSION: install Go 1.24+"; exit 1; }
  say "installing Prometheus and promtool $VERSION into $DIR (once; log: $CACHE_DIR/prometheus-build.log)"
  if ! GOBIN="$DIR" GOFLAGS=-mod=mod "$go" install "$MODULE/cmd/prometheus@$VERSION" "$MODULE/cmd/promtool@$VERSION" \
    >"$CACHE_DIR/prometheus-build.log" 2>&1; then
    tail -n 20 "$CACHE_DIR/prometheus-build.log" >&2
    say "install failed"
    exit 1
  fi
fi
printf '%s\n' "$DIR"
