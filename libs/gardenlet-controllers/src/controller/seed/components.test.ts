import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { workspaceRoot } from '@gardener-ts/testing';
import {
  capacityStatus,
  checkMinimumKubernetesVersion,
  needsProgressing,
  parseMinorVersion,
  priorityClasses,
  seedCRDs,
} from './components.js';
import { readCRDFiles } from './seed-system.js';

describe('seed components', () => {
  it("deploys Gardener's PriorityClasses with their values", () => {
    const byName = Object.fromEntries(
      priorityClasses().map((pc) => [pc.metadata!.name, (pc as { value: number }).value]),
    );
    expect(byName).toMatchObject({
      'gardener-system-critical': 999998950,
      'gardener-system-900': 999998900,
      'gardener-system-600': 999998600,
      'gardener-system-500': 999998500,
      'gardener-system-100': 999998100,
      'gardener-reserve-excess-capacity': -5,
    });
  });

  it("selects the seed CRDs from Gardener's vendored CRDs: extensions, resources and machine, not operator", async () => {
    const crds = seedCRDs(await readCRDFiles([join(workspaceRoot(), 'deploy/gardener/crds')]));
    const groups = new Set(crds.map((c) => (c as { spec: { group: string } }).spec.group));
    expect([...groups].sort()).toEqual([
      'extensions.gardener.cloud',
      'machine.sapcloud.io',
      'resources.gardener.cloud',
    ]);
    expect(crds.map((c) => c.metadata!.name)).toContain('managedresources.resources.gardener.cloud');
    expect(crds.map((c) => c.metadata!.name)).not.toContain('gardens.operator.gardener.cloud');
  });

  it('checks the minimum Kubernetes version of the seed', () => {
    expect(() => checkMinimumKubernetesVersion('v1.35.0-gardener-ts')).not.toThrow();
    expect(() => checkMinimumKubernetesVersion('v1.30.2')).not.toThrow();
    expect(() => checkMinimumKubernetesVersion('v1.29.9')).toThrow(
      'the Kubernetes version of the Seed cluster must be at least 1.30, but it is v1.29.9',
    );
    expect(() => checkMinimumKubernetesVersion('banana')).toThrow(/cannot parse/);
  });

  it('orders versions like their numbers (property)', () => {
    fc.assert(
      fc.property(fc.nat(3), fc.nat(60), fc.nat(3), fc.nat(60), (a, b, c, d) => {
        const ok = a > c || (a === c && b >= d);
        let threw = false;
        try {
          checkMinimumKubernetesVersion(`v${a}.${b}.7`, `${c}.${d}`);
        } catch {
          threw = true;
        }
        expect(threw).toBe(!ok);
        expect(parseMinorVersion(`${a}.${b}`)).toEqual([a, b]);
      }),
    );
  });

  it('computes capacity and allocatable from resources', () => {
    expect(capacityStatus({ capacity: { shoots: 200 }, reserved: { shoots: 10 } })).toEqual({
      capacity: { shoots: '200' },
      allocatable: { shoots: '190' },
    });
    expect(capacityStatus({ capacity: { shoots: 5 }, reserved: { shoots: 10 } })).toEqual({
      capacity: { shoots: '5' },
      allocatable: { shoots: '0' },
    });
    expect(capacityStatus(undefined)).toBeUndefined();
  });

  it('announces Progressing for a new generation, a new version or when not bootstrapped', () => {
    const done = {
      metadata: { generation: 2 },
      status: {
        observedGeneration: 2,
        gardener: { version: '1.0.0' },
        conditions: [{ type: 'Bootstrapped', status: 'True' }],
      },
    } as never;
    expect(needsProgressing(done, '1.0.0')).toBe(false);
    expect(needsProgressing(done, '1.1.0')).toBe(true);
    expect(needsProgressing({ ...(done as object), metadata: { generation: 3 } } as never, '1.0.0')).toBe(true);
    expect(needsProgressing({ metadata: { generation: 1 } }, '1.0.0')).toBe(true);
  });
});
