// Regenerates crds/*.yaml from the TypeBox schemas and src/gardener-types from Gardener's CRDs.
// Run: npm run generate -w @gardener-ts/api
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crdFileName, generatedCRDs, renderCRD } from '../src/crd/generate.js';
import { gardenerCRDs } from '../src/crd/gardener.js';
import { renderGroupTypes, typeGroups } from './typegen.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const crdsDir = join(root, 'crds');

mkdirSync(crdsDir, { recursive: true });
for (const name of readdirSync(crdsDir)) if (name.endsWith('.yaml')) rmSync(join(crdsDir, name));
for (const crd of generatedCRDs()) writeFileSync(join(crdsDir, crdFileName(crd)), renderCRD(crd));
console.log(`wrote ${generatedCRDs().length} CRDs to ${crdsDir}`);

const typesDir = join(root, 'src', 'crd-types');
for (const [group, file] of Object.entries(typeGroups)) {
  const path = join(typesDir, file);
  writeFileSync(path, await renderGroupTypes(group, gardenerCRDs(), path));
}
console.log(`wrote the types of ${Object.keys(typeGroups).length} CRD groups to ${typesDir}`);
