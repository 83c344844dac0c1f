// The ShootState writer on fakes: the migrate flow merges the computed state into the stored one, the periodic backup
// (`overwriteSpec`) replaces it, so state of resources that are gone does not linger.
import { describe, expect, it } from 'vitest';
import type { KubernetesObject, Patch } from '@gardener-ts/controller-runtime';
import { exampleShoot } from '../component/testdata/fixtures.js';
import { deployShootState } from './shootstate-writer.js';

const stored = {
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'ShootState',
  metadata: { name: 'local', namespace: 'garden-local', resourceVersion: '3' },
  spec: {
    gardener: [{ name: 'ca-old', type: 'secret', data: { 'ca.crt': 'b2xk' } }],
    extensions: [{ kind: 'Worker', name: 'gone', state: { machines: 1 } }],
  },
};

function setup() {
  const patches: Record<string, any>[] = [];
  const garden = {
    get: async () => structuredClone(stored),
    create: async (o: KubernetesObject) => o,
    patch: async (_k: unknown, _key: unknown, p: Patch) => {
      patches.push(p.patch as Record<string, any>);
      return { ...stored, ...(p.patch as object) };
    },
  };
  const seed = {
    get: async () => ({}),
    list: async (kind: { kind: string }) => ({
      items:
        kind.kind === 'Secret'
          ? [{ metadata: { name: 'ca-new', labels: { persist: 'true' } }, data: { 'ca.crt': 'bmV3' } }]
          : kind.kind === 'Infrastructure'
            ? [{ metadata: { name: 'local' }, status: { state: { vpc: 'v-1' } } }]
            : [],
    }),
  };
  return { patches, garden, seed };
}

describe('deployShootState', () => {
  it('merges the computed state into the stored one on migration', async () => {
    const { patches, garden, seed } = setup();
    await deployShootState(
      garden as never,
      seed as never,
      exampleShoot(),
      'shoot--local--local',
      new Date('2026-11-29T12:00:00Z'),
    );
    expect(patches[0]!.spec.gardener.map((g: { name: string }) => g.name)).toEqual(['ca-old', 'ca-new']);
    expect(patches[0]!.spec.extensions.map((e: { name: string }) => e.name)).toEqual(['gone', 'local']);
  });

  it('replaces the stored state with overwriteSpec (the periodic backup), stamped with the time', async () => {
    const { patches, garden, seed } = setup();
    await deployShootState(
      garden as never,
      seed as never,
      exampleShoot(),
      'shoot--local--local',
      new Date('2026-11-29T12:00:00.123Z'),
      { overwriteSpec: true },
    );
    expect(patches[0]!.metadata).toEqual({
      annotations: { 'gardener.cloud/timestamp': '2026-11-29T12:00:00Z' },
      resourceVersion: '3',
    });
    expect(patches[0]!.spec).toEqual({
      gardener: [{ name: 'ca-new', type: 'secret', labels: { persist: 'true' }, data: { 'ca.crt': 'bmV3' } }],
      extensions: [{ kind: 'Infrastructure', name: 'local', state: { vpc: 'v-1' } }],
      resources: null,
    });
  });
});
