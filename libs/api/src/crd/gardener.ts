// Gardener's own CRDs (extensions, resources, operator, machine groups), shipped in crds/gardener of this package.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import type { CustomResourceDefinition } from './types.js';

/** The package's crds/ folder: found from this module (sources or dist), else through the package resolution. */
export function crdsDirectory(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === '@gardener-ts/api') {
      return join(dir, 'crds');
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  // Bundled into an app: the module no longer sits inside the package, so ask Node where the package is installed.
  const manifest = createRequire(import.meta.url).resolve('@gardener-ts/api/package.json');
  return join(dirname(manifest), 'crds');
}

export function readCRDFile(path: string): CustomResourceDefinition[] {
  const crds: CustomResourceDefinition[] = [];
  for (const doc of parseAllDocuments(readFileSync(path, 'utf8'))) {
    if (doc.errors.length > 0) throw new Error(`${path}: ${doc.errors[0].message}`);
    const object = doc.toJS() as CustomResourceDefinition | null;
    if (object === null) continue;
    if (object.kind !== 'CustomResourceDefinition') throw new Error(`${path}: expected a CustomResourceDefinition`);
    crds.push(object);
  }
  return crds;
}

let cached: CustomResourceDefinition[] | undefined;

/** Gardener's CRDs for extensions.gardener.cloud, resources.gardener.cloud, operator.gardener.cloud, machine.sapcloud.io. */
export function gardenerCRDs(): CustomResourceDefinition[] {
  if (!cached) {
    const dir = join(crdsDirectory(), 'gardener');
    cached = readdirSync(dir)
      .filter((name) => name.endsWith('.yaml'))
      .sort()
      .flatMap((name) => readCRDFile(join(dir, name)));
  }
  return structuredClone(cached);
}
