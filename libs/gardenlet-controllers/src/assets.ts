// Where the gardenlet finds what it deploys: environment variables, else the image layout (/app/{bin,charts,crds}
// next to main.js), else the gardener-ts workspace (deploy/charts, deploy/gardener/crds, the vendored helm).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { GardenletAssets } from './gardenlet.js';

/**
 * The assets for a gardenlet started from `appDir` (the directory of main.js). Overrides: GARDENLET_HELM,
 * GARDENLET_CHARTS_DIR, GARDENLET_CRDS_DIR.
 */
export function resolveAssets(appDir: string, env: NodeJS.ProcessEnv = process.env): GardenletAssets {
  const first = (...candidates: string[]) =>
    candidates.find((c) => existsSync(c)) ?? candidates[candidates.length - 1]!;
  const workspace = resolve(appDir, '../../..');
  return {
    helmBinary:
      env.GARDENLET_HELM ?? first(join(appDir, 'bin/helm'), join(workspace, 'tools/k8s-binaries/vendor/helm')),
    chartsDir: env.GARDENLET_CHARTS_DIR ?? first(join(appDir, 'charts'), join(workspace, 'deploy/charts')),
    crdDirs: [env.GARDENLET_CRDS_DIR ?? first(join(appDir, 'crds'), join(workspace, 'deploy/gardener/crds'))],
  };
}
