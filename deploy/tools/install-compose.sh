#!/usr/bin/env bash
# Makes sure Docker Compose v2 is available for `docker compose config` (the compose file's own
# validation and interpolation; no Docker engine needed) and prints its path:
#
#   bash deploy/tools/install-compose.sh   # -> ~/.cache/agent-platform/bin/docker-compose
#
# Uses $DOCKER_COMPOSE when set; otherwise builds the pinned release from the Go module proxy
# (`go install github.com/docker/compose/v2/cmd@$VERSION`, about 3 minutes the first time on 2 cores)
# into the cache, named docker-compose so it runs standalone. Later runs reuse it.
set -euo pipefail

CACHE_DIR="${AGENT_PLATFORM_CACHE_DIR:-$HOME/.cache/agent-platform}"
VERSION=v2.29.7
BIN="$CACHE_DIR/bin/docker-compose"

say() { printf '[compose] %s\n' "$*" >&2; }

if [ -n "${DOCKER_COMPOSE:-}" ] && [ -x "$DOCKER_COMPOSE" ]; then
  printf '%s\n' "$DOCKER_COMPOSE"
  exit 0
fi
mkdir -p "$CACHE_DIR/bin"
exec 9>"$CACHE_DIR/.compose.lock"
flock -w 1800 9 || { say "another build holds $CACHE_DIR/.compose.lock"; exit 1; }
# A `go install` build says "version dev": a marker file records which release it is.
if ! [ -x "$BIN" ] || [ "$(cat "$BIN.version" 2>/dev/null)" != "$VERSION" ]; then
  go="$(command -v go 2>/dev/null || true)"
  [ -n "$go" ] || { [ -x /usr/local/go/bin/go ] && go=/usr/local/go/bin/go; }
  [ -n "$go" ] || { say "no Go toolchain to build Docker Compose: install Go 1.22+"; exit 1; }
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  say "building Docker Compose $VERSION from Go modules into $BIN (once; log: $CACHE_DIR/compose-build.log)"
  started=$SECONDS
  if ! GOBIN="$work" GOFLAGS=-mod=mod "$go" install "github.com/docker/compose/v2/cmd@$VERSION" \
    >"$CACHE_DIR/compose-build.log" 2>&1; then
    tail -n 20 "$CACHE_DIR/compose-build.log" >&2
    say "build failed"
    exit 1
  fi
  mv "$work/cmd" "$BIN"
  printf '%s\n' "$VERSION" >"$BIN.version"
  say "built in $((SECONDS - started))s"
fi
printf '%s\n' "$BIN"
