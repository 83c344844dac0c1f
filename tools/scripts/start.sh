#!/usr/bin/env bash
# `npm start`: install what is missing, build every project and run the local landscape in the foreground, all on
# the Node bootstrap chose (.tools/node when the machine's is older than 24). Arguments go to `gardener-local up`.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash tools/scripts/bootstrap.sh
# shellcheck source=tools/scripts/node-env.sh
source tools/scripts/node-env.sh
gts_use_node
export NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false
npx nx run-many -t build --output-style=static
exec node dist/tools/gardener-local/cli.js up "$@"
