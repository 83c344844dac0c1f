import { describe, expect, it } from 'vitest';
import type { ControllerInstallation } from '@gardener-ts/api';
import { mapControllerInstallationToSeed, relevantConditionsChanged } from './add.js';

const T = '2026-01-01T00:00:00Z';
const installation = (
  seed: string | undefined,
  conditions: { type: string; status: 'True' | 'False' | 'Unknown'; reason?: string; message?: string }[] = [],
): ControllerInstallation => ({
  metadata: { name: 'provider-local-x' },
  spec: { registrationRef: { name: 'provider-local' }, ...(seed ? { seedRef: { name: seed } } : {}) },
  status: {
    conditions: conditions.map((c) => ({
      reason: 'R',
      message: 'M',
      lastTransitionTime: T,
      lastUpdateTime: T,
      ...c,
    })),
  },
});

describe('mapControllerInstallationToSeed', () => {
  it('maps to the seed of spec.seedRef and to nothing for shoot installations', () => {
    expect(mapControllerInstallationToSeed(installation('local'))).toEqual([{ namespace: '', name: 'local' }]);
    expect(mapControllerInstallationToSeed(installation(undefined))).toEqual([]);
  });
});

describe('relevantConditionsChanged', () => {
  const update = (a: ControllerInstallation, b: ControllerInstallation) =>
    relevantConditionsChanged({ type: 'update', oldObject: a, object: b });

  it('lets creations and deletions through', () => {
    expect(relevantConditionsChanged({ type: 'create', object: installation('local') })).toBe(true);
    expect(relevantConditionsChanged({ type: 'delete', object: installation('local') })).toBe(true);
  });

  it('lets updates through only when a checked condition appeared, went, or changed status, reason or message', () => {
    const healthy = installation('local', [{ type: 'Healthy', status: 'True' }]);
    expect(update(healthy, installation('local', [{ type: 'Healthy', status: 'True' }]))).toBe(false);
    expect(update(healthy, installation('local', [{ type: 'Healthy', status: 'False' }]))).toBe(true);
    expect(update(healthy, installation('local', [{ type: 'Healthy', status: 'True', reason: 'Other' }]))).toBe(true);
    expect(update(healthy, installation('local', [{ type: 'Healthy', status: 'True', message: 'new' }]))).toBe(true);
    expect(update(healthy, installation('local', []))).toBe(true);
    expect(update(installation('local'), installation('local', [{ type: 'Valid', status: 'True' }]))).toBe(true);
    // Conditions the check does not read, and timestamps, do not matter.
    expect(
      update(
        healthy,
        installation('local', [
          { type: 'Healthy', status: 'True' },
          { type: 'Required', status: 'True' },
        ]),
      ),
    ).toBe(false);
    const later = installation('local', [{ type: 'Healthy', status: 'True' }]);
    later.status!.conditions![0]!.lastUpdateTime = '2026-02-01T00:00:00Z';
    expect(update(healthy, later)).toBe(false);
  });
});
