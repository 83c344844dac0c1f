#!/usr/bin/env bash
# The whole check, as CI runs it: install, format check (prettier), lint, typecheck, build every project, then every
# test in one run.
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)
bash tools/scripts/bootstrap.sh
# From here on everything runs on the Node bootstrap chose (.tools/node when the machine's is older than 24), also
# when `npm test` was started by an older Node's npm.
# shellcheck source=tools/scripts/node-env.sh
source tools/scripts/node-env.sh
gts_use_node
echo "ci: node $(node --version)"
export NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false
# Prettier is the format (STYLE.md); `npm run format` fixes what this refuses.
npx prettier --check . --log-level warn
npx nx run-many -t lint typecheck build --output-style=static --parallel=2
mkdir -p .tmp
rc=0
npx vitest run --reporter=default --reporter=json --outputFile.json=.tmp/vitest-results.json || rc=$?
node tools/scripts/test-summary.mjs .tmp/vitest-results.json || true
echo "ci: finished in $(( $(date +%s) - start ))s with exit code $rc"
exit $rc
