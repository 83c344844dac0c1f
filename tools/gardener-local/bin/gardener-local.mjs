#!/usr/bin/env node
// Runs the built CLI bundle; build it with `npx nx build gardener-local`.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = fileURLToPath(new URL('../../../dist/tools/gardener-local/cli.js', import.meta.url));
if (!existsSync(bundle)) {
  console.error(`gardener-local is not built yet: run "npx nx build gardener-local" (expected ${bundle})`);
  process.exit(1);
}
await import(bundle);
