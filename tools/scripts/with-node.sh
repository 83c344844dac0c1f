#!/usr/bin/env bash
# Runs a command on the Node gardener-ts uses (.tools/node when the machine's Node is older than 24; see
# node-env.sh), e.g. from npm scripts started by an older Node's npm: `bash tools/scripts/with-node.sh nx build`.
set -euo pipefail
# shellcheck source=tools/scripts/node-env.sh
source "$(dirname "$0")/node-env.sh"
gts_use_node
exec "$@"
