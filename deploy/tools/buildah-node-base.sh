#!/usr/bin/env bash
# Makes sure buildah's storage holds the Dockerfile's base image `node:24-bookworm-slim`: pulled
# where a registry answers, else a stand-in built here, for machines that reach
# Debian's mirror and the npm registry but no container registry (Docker Hub's DNS name does not
# even resolve on the reference machine; deploy/README.md, "The image"). Built the way the official
# image is: Debian bookworm (debootstrap, minbase), Node.js in /usr/local (the same $NODE_VERSION as
# ./platform uses, from the npm registry package), npm, and the `node` user 1000:1000. Stored in
# buildah's local storage as docker.io/library/node:24-bookworm-slim, so the Dockerfile builds
# unchanged. Prints that name (stdout).
#
#   BUILDAH_ARGS="--root DIR --runroot DIR --storage-driver vfs" bash deploy/tools/buildah-node-base.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
IMAGE=docker.io/library/node:24-bookworm-slim
NPM_VERSION=11.21.2
NPM_INTEGRITY=sha512-7HPApk+AflMUavSseL1Pm6CnYqMIHk53x+KmuhqmTDqPkjPMgxIpTPcTqsE91EKNw4gFBJV9fnXiSdGm1DXq9A==
SUITE=bookworm
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
CACHE_DIR="${AGENT_PLATFORM_CACHE_DIR:-$HOME/.cache/agent-platform}"
read -r -a BUILDAH_ARGS <<<"${BUILDAH_ARGS:-}"

say() { printf '[node-base] %s\n' "$*" >&2; }
bah() { buildah "${BUILDAH_ARGS[@]}" "$@"; }

if bah inspect --type image "$IMAGE" >/dev/null 2>&1; then
  printf '%s\n' "$IMAGE"
  exit 0
fi
# The real base where a registry answers; the stand-in only when the pull fails.
if pull_error="$(bah pull --quiet --retry 1 "$IMAGE" 2>&1 >/dev/null)"; then
  printf '%s\n' "$IMAGE"
  exit 0
fi
say "cannot pull $IMAGE, building a stand-in: $pull_error"
command -v debootstrap >/dev/null || {
  say "debootstrap is missing (apt-get install debootstrap)"
  exit 1
}
# The Node.js ./platform installs (the cached copy, whatever the machine's own node).
node_bin="$(NODE_INSTALL_ALWAYS=1 AGENT_PLATFORM_CACHE_DIR="$CACHE_DIR" bash "$ROOT/deploy/tools/install-node.sh")"
node_version="$("$node_bin/node" -p process.versions.node)"
node_dir="$(dirname "$node_bin")"

work="$(mktemp -d "${TMPDIR:-/var/tmp}/node-base.XXXXXX")"
trap 'rm -rf "$work"' EXIT
say "debootstrap $SUITE (minbase) from $MIRROR"
debootstrap --variant=minbase "$SUITE" "$work/rootfs" "$MIRROR" >"$work/debootstrap.log" 2>&1 || {
  tail -n 20 "$work/debootstrap.log" >&2
  exit 1
}
say "Node.js $node_version and npm $NPM_VERSION into /usr/local, user node 1000:1000"
install -m 0755 "$node_dir/bin/node" "$work/rootfs/usr/local/bin/node"
mkdir -p "$work/rootfs/usr/local/lib/node_modules/npm"
curl -fsSL --retry 3 -o "$work/npm.tgz" "${NPM_CONFIG_REGISTRY:-https://registry.npmjs.org}/npm/-/npm-$NPM_VERSION.tgz"
[ "sha512-$(openssl dgst -sha512 -binary "$work/npm.tgz" | base64 -w0)" = "$NPM_INTEGRITY" ] || {
  say "npm-$NPM_VERSION.tgz does not match its pinned integrity"
  exit 1
}
tar -xzf "$work/npm.tgz" -C "$work/rootfs/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$work/rootfs/usr/local/bin/npx"
chroot "$work/rootfs" groupadd --gid 1000 node
chroot "$work/rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
# The machine's CA bundle, when it has one of its own: behind a TLS-intercepting proxy (the
# reference machine's) npm and pnpm inside the build trust what the host trusts; elsewhere this is
# Debian's ca-certificates bundle and changes nothing.
ca_env=()
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -r "$NODE_EXTRA_CA_CERTS" ]; then
  install -D -m 0644 "$NODE_EXTRA_CA_CERTS" "$work/rootfs/usr/local/share/platform-build/host-ca.crt"
  ca_env=(--env NODE_EXTRA_CA_CERTS=/usr/local/share/platform-build/host-ca.crt)
fi
rm -rf "$work/rootfs/var/cache/apt/archives/"*.deb "$work/rootfs/var/lib/apt/lists/"*
tar -C "$work/rootfs" -cf "$work/rootfs.tar" .

ctr="$(bah from scratch)"
bah add "$ctr" "$work/rootfs.tar" / >/dev/null
bah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  --env NODE_VERSION="$node_version" "${ca_env[@]}" --cmd node "$ctr"
bah commit --quiet "$ctr" "$IMAGE" >/dev/null
bah rm "$ctr" >/dev/null
printf '%s\n' "$IMAGE"
