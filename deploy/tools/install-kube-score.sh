#!/usr/bin/env bash
# Makes sure kube-score (the manifest linter the prod overlay test runs) is available, and prints
# the binary's path (stdout):
#
#   bash deploy/tools/install-kube-score.sh   # -> ~/.cache/agent-platform/go-bin/kube-score
#
# Built with `go install` from its Go module, pinned ($KUBE_SCORE_VERSION; go.sum checks it against
# the checksum database). kube-linter is not served by the module proxy under either of its names,
# so kube-score is the linter. Later runs reuse the binary; the first build takes a minute or two.
set -euo pipefail

CACHE_DIR="${AGENT_PLATFORM_CACHE_DIR:-$HOME/.cache/agent-platform}"
KUBE_SCORE_VERSION=v1.20.0
BIN_DIR="$CACHE_DIR/go-bin"
BIN="$BIN_DIR/kube-score"

say() { printf '[kube-score] %s\n' "$*" >&2; }

go="$(command -v go 2>/dev/null || true)"
[ -n "$go" ] || { [ -x /usr/local/go/bin/go ] && go=/usr/local/go/bin/go; }

mkdir -p "$BIN_DIR"
exec 8>"$CACHE_DIR/.kube-score.lock"
flock -w 900 8 || { say "another install holds $CACHE_DIR/.kube-score.lock"; exit 1; }

# `go install` does not stamp the version into `kube-score version`: a marker does.
if ! [ -x "$BIN" ] || [ "$(cat "$BIN.version" 2>/dev/null)" != "$KUBE_SCORE_VERSION" ]; then
  [ -n "$go" ] || { say "no Go toolchain to build kube-score: install Go 1.22+"; exit 1; }
  say "installing kube-score $KUBE_SCORE_VERSION into $BIN"
  GOBIN="$BIN_DIR" GOFLAGS=-mod=mod "$go" install "github.com/zegl/kube-score/cmd/kube-score@$KUBE_SCORE_VERSION" >&2
  printf '%s\n' "$KUBE_SCORE_VERSION" >"$BIN.version"
fi
printf '%s\n' "$BIN"
