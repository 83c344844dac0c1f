import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, found from this file wherever the tests run. */
export function workspaceRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'nx.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('workspace root (nx.json) not found');
    dir = parent;
  }
  return dir;
}

/** The built bundle of an app; tests that run it need `nx build <app>` first (the test target depends on it). */
export function appBundle(app: string): string {
  const path = join(workspaceRoot(), 'dist', 'apps', app, 'main.js');
  if (!existsSync(path)) throw new Error(`${path} is missing: run "npx nx build ${app}" first`);
  return path;
}

/** Gardener's own CRDs and example manifests, vendored from gardener/gardener (Apache-2.0) under deploy/gardener. */
export function gardenerAsset(...path: string[]): string {
  return join(workspaceRoot(), 'deploy', 'gardener', ...path);
}
