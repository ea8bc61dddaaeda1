#!/usr/bin/env bash
# Makes sure a kubectl that can render this repository's kustomizations is available, and prints its
# path (the deployment tests run `kubectl kustomize`; they fail, never skip, without it).
#
#   bash deploy/tools/install-kubectl.sh        # -> /usr/bin/kubectl, or the cached build
#
# Looks at $KUBECTL, kubectl on PATH and the cached build, keeping the first that is 1.24 or newer
# and renders deploy/k8s/base. Otherwise builds kubectl from its Go modules (deploy/tools/kubectl,
# pinned by go.sum, fetched through the Go module proxy) into $AGENT_PLATFORM_CACHE_DIR/bin/kubectl:
# Debian 12's own kubernetes-client is 1.20, too old for `labels:` and inline `patches`. The first
# build takes a few minutes (measured: 9 min cold on 2 cores, most of it downloads); later runs reuse
# the binary. Needs Go 1.23+ on PATH or at /usr/local/go/bin/go (as the FerretDB build does).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
CACHE_DIR="${AGENT_PLATFORM_CACHE_DIR:-$HOME/.cache/agent-platform}"
BIN="$CACHE_DIR/bin/kubectl"
# Must match k8s.io/kubectl v0.<minor>.<patch> in deploy/tools/kubectl/go.mod.
VERSION=v1.32.4
MINOR="${VERSION#v1.}"
MINOR="${MINOR%%.*}"

say() { printf '[kubectl] %s\n' "$*" >&2; }

usable() {
  local bin="$1" minor
  [ -n "$bin" ] && [ -x "$bin" ] || return 1
  minor="$("$bin" version --client -o json 2>/dev/null | sed -n 's/^ *"minor": "\([0-9]*\).*/\1/p' | head -n 1)"
  [ -n "$minor" ] && [ "$minor" -ge 24 ] || return 1
  "$bin" kustomize "$ROOT/deploy/k8s/base" >/dev/null 2>&1
}

for candidate in "${KUBECTL:-}" "$(command -v kubectl 2>/dev/null || true)" "$BIN"; do
  if usable "$candidate"; then
    printf '%s\n' "$candidate"
    exit 0
  fi
done

go="$(command -v go 2>/dev/null || true)"
[ -n "$go" ] || { [ -x /usr/local/go/bin/go ] && go=/usr/local/go/bin/go; }
if [ -z "$go" ]; then
  say "no usable kubectl, and no Go toolchain to build one: install Go 1.23+ or kubectl 1.24+"
  exit 1
fi
mkdir -p "$CACHE_DIR/bin"
exec 7>"$CACHE_DIR/.kubectl.lock"
flock -w 1800 7 || { say "another build holds $CACHE_DIR/.kubectl.lock"; exit 1; }
if ! usable "$BIN"; then
  say "building kubectl $VERSION from Go modules into $BIN (once; log: $CACHE_DIR/kubectl-build.log)"
  started=$SECONDS
  if ! (cd "$HERE/kubectl" && CGO_ENABLED=0 GOFLAGS=-buildvcs=false "$go" build -trimpath \
    -ldflags "-s -w -X k8s.io/component-base/version.gitVersion=$VERSION \
      -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$MINOR" \
    -o "$BIN.tmp" .) >"$CACHE_DIR/kubectl-build.log" 2>&1; then
    tail -n 20 "$CACHE_DIR/kubectl-build.log" >&2
    say "build failed"
    exit 1
  fi
  mv "$BIN.tmp" "$BIN"
  say "built in $((SECONDS - started))s"
fi
usable "$BIN" || { say "$BIN does not render deploy/k8s/base"; exit 1; }
printf '%s\n' "$BIN"
