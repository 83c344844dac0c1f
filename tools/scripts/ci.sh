#!/usr/bin/env bash
# The whole check, as CI runs it: install, lint, typecheck, build every project, then every test in one run.
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)
bash tools/scripts/bootstrap.sh
export NX_DAEMON=false NX_NO_CLOUD=true
npx nx run-many -t lint typecheck build --output-style=static --parallel=2
npx vitest run
echo "ci: passed in $(( $(date +%s) - start ))s"
