import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { gardenerCRDs } from '../src/crd/index.js';
import {
  extensionsv1alpha1,
  fieldsOf,
  machinev1alpha1,
  operatorv1alpha1,
  resourcesv1alpha1,
} from '../src/crd-types/index.js';
import { renderGroupTypes, typeGroups } from '../scripts/typegen.js';

const typesDir = fileURLToPath(new URL('../src/crd-types', import.meta.url));
const modules: Record<string, Record<string, unknown>> = {
  'extensions.gardener.cloud': extensionsv1alpha1,
  'resources.gardener.cloud': resourcesv1alpha1,
  'operator.gardener.cloud': operatorv1alpha1,
  'machine.sapcloud.io': machinev1alpha1,
};

describe('types of Gardener CRD kinds', () => {
  it('are regenerated from the current CRDs (run `npm run generate -w @gardener-ts/api`)', async () => {
    for (const [group, file] of Object.entries(typeGroups)) {
      const path = join(typesDir, file);
      expect(readFileSync(path, 'utf8'), file).toBe(await renderGroupTypes(group, gardenerCRDs(), path));
    }
  });

  for (const crd of gardenerCRDs()) {
    it(`${crd.spec.names.kind} (${crd.spec.group}) has exactly the top-level spec/status fields of its CRD`, () => {
      const fields = modules[crd.spec.group][`${crd.spec.names.kind}Fields`] as Record<string, readonly string[]>;
      expect(fields, `no field list for ${crd.spec.names.kind}`).toBeDefined();
      const schema = crd.spec.versions.find((v) => v.storage)!.schema!.openAPIV3Schema;
      for (const part of ['spec', 'status'] as const) {
        const inCRD = Object.keys(schema.properties?.[part]?.properties ?? {}).sort();
        expect([...(fields[part] ?? [])].sort(), `${crd.spec.names.kind}.${part}`).toEqual(inCRD);
      }
    });
  }

  it('ties field lists to their types at compile time', () => {
    interface Spec {
      a: string;
      b?: number;
    }
    expect(fieldsOf<Spec>()(['a', 'b'])).toEqual(['a', 'b']);
    // @ts-expect-error -- "b" is missing, which must not compile
    fieldsOf<Spec>()(['a']);
    // @ts-expect-error -- "c" is not a field of Spec
    fieldsOf<Spec>()(['a', 'b', 'c']);
  });

  it('types objects the way the CRD shapes them', () => {
    const worker: extensionsv1alpha1.Worker = {
      apiVersion: 'extensions.gardener.cloud/v1alpha1',
      kind: 'Worker',
      metadata: { name: 'worker', namespace: 'shoot--dev--local' },
      spec: {
        type: 'local',
        region: 'local',
        secretRef: { name: 'cloudprovider' },
        infrastructureProviderStatus: {},
        pools: [],
      } as extensionsv1alpha1.WorkerSpec,
    };
    expect(extensionsv1alpha1.WorkerKind.plural).toBe('workers');
    expect(worker.spec.type).toBe('local');
  });
});
