#!/usr/bin/env bash
# Makes sure a Jaeger v2 binary (github.com/jaegertracing/jaeger/cmd/jaeger, module v1.76.0: the
# Jaeger v2 all-in-one built on the OpenTelemetry Collector) is available and prints its path:
#
#   bash deploy/tools/install-jaeger.sh   # -> ~/.cache/agent-platform/go-bin/jaeger
#
# Uses $JAEGER_BIN when it is set and runs. Otherwise reuses the cached binary when `go version -m`
# says it was built from that module at that version (the binary's own `version` prints empty
# fields for a module build), else builds it once (about 4 minutes of CPU on 2 cores). Jaeger's
# go.mod has replace directives, so `go install …@v1.76.0` refuses it: the build goes through a
# throwaway tool module (`go get -tool` resolves the same dependency graph, then `go build`).
set -euo pipefail

CACHE_DIR="${AGENT_PLATFORM_CACHE_DIR:-$HOME/.cache/agent-platform}"
MODULE=github.com/jaegertracing/jaeger
VERSION=v1.76.0
BIN_DIR="$CACHE_DIR/go-bin"
BIN="$BIN_DIR/jaeger"

say() { printf '[jaeger] %s\n' "$*" >&2; }

if [ -n "${JAEGER_BIN:-}" ] && [ -x "$JAEGER_BIN" ]; then
  printf '%s\n' "$JAEGER_BIN"
  exit 0
fi

go="$(command -v go 2>/dev/null || true)"
[ -n "$go" ] || { [ -x /usr/local/go/bin/go ] && go=/usr/local/go/bin/go; }

# Built from $MODULE at $VERSION? (`go version -m` reads the build info; a marker file when no Go.)
built_from_module() {
  [ -x "$BIN" ] || return 1
  if [ -n "$go" ]; then
    # captured first: with pipefail, `grep -q` closing the pipe early could fail the check
    local info
    info="$("$go" version -m "$BIN" 2>/dev/null)" || return 1
    grep -Eq "^[[:space:]]+mod[[:space:]]+$MODULE[[:space:]]+$VERSION([[:space:]]|$)" <<<"$info"
  else
    [ "$(cat "$BIN.version" 2>/dev/null)" = "$VERSION" ]
  fi
}

mkdir -p "$BIN_DIR"
exec 9>"$CACHE_DIR/.jaeger.lock"
flock -w 1800 9 || { say "another build holds $CACHE_DIR/.jaeger.lock"; exit 1; }

if ! built_from_module; then
  [ -n "$go" ] || { say "no Go toolchain to build Jaeger $VERSION: install Go 1.24+ (or set JAEGER_BIN)"; exit 1; }
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  say "building Jaeger $VERSION from Go modules into $BIN (once; log: $CACHE_DIR/jaeger-build.log)"
  started=$SECONDS
  if ! (cd "$work" && "$go" mod init jaeger-tool && GOFLAGS=-mod=mod "$go" get -tool "$MODULE/cmd/jaeger@$VERSION" &&
    CGO_ENABLED=0 "$go" build -trimpath -o "$work/jaeger" "$MODULE/cmd/jaeger") >"$CACHE_DIR/jaeger-build.log" 2>&1; then
    tail -n 20 "$CACHE_DIR/jaeger-build.log" >&2
    say "build failed"
    exit 1
  fi
  mv "$work/jaeger" "$BIN"
  printf '%s\n' "$VERSION" >"$BIN.version"
  say "built in $((SECONDS - started))s"
fi
printf '%s\n' "$BIN"
