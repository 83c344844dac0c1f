import { describe, expect, it } from 'vitest';
import {
  checkDeployment,
  checkManagedResource,
  systemComponentsCondition,
  type ManagedResourceLike,
} from './health.js';

const mr = (conditions: [string, string][], generation = 1, observed = 1): ManagedResourceLike => ({
  apiVersion: 'resources.gardener.cloud/v1alpha1',
  kind: 'ManagedResource',
  metadata: { name: 'etcd-druid', namespace: 'garden', generation },
  status: {
    observedGeneration: observed,
    conditions: conditions.map(([type, status]) => ({ type, status, message: 'x' })),
  },
});
const healthy: [string, string][] = [
  ['ResourcesApplied', 'True'],
  ['ResourcesHealthy', 'True'],
  ['ResourcesProgressing', 'False'],
];

describe('seed care checks', () => {
  it('accepts a ManagedResource that is applied, healthy, settled and observed', () => {
    expect(checkManagedResource(mr(healthy))).toBeUndefined();
  });

  it('reports what is wrong with a ManagedResource', () => {
    expect(checkManagedResource(mr(healthy, 2, 1))?.reason).toBe('OutdatedStatus');
    expect(checkManagedResource(mr([['ResourcesApplied', 'False'], ...healthy.slice(1)]))).toMatchObject({
      reason: 'ResourcesNotApplied',
      message: 'condition ResourcesApplied of managed resource "etcd-druid" has status False: x',
    });
    expect(checkManagedResource(mr([healthy[0]!, ['ResourcesHealthy', 'False'], healthy[2]!]))?.reason).toBe(
      'ResourcesUnhealthy',
    );
    expect(checkManagedResource(mr([healthy[0]!, healthy[1]!, ['ResourcesProgressing', 'True']]))?.reason).toBe(
      'ResourcesProgressing',
    );
    expect(checkManagedResource(mr([]))?.message).toContain(
      'condition ResourcesApplied of managed resource "etcd-druid" is missing',
    );
  });

  it('checks the gardener-resource-manager Deployment', () => {
    expect(checkDeployment('grm', undefined)?.reason).toBe('DeploymentMissing');
    expect(
      checkDeployment('grm', {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { generation: 1 },
        spec: { replicas: 2 },
        status: { observedGeneration: 1, availableReplicas: 1 },
      })?.message,
    ).toBe('deployment "grm" has 1/2 available replicas');
    expect(
      checkDeployment('grm', {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { generation: 1 },
        spec: { replicas: 1 },
        status: { observedGeneration: 1, availableReplicas: 1 },
      }),
    ).toBeUndefined();
  });

  it('turns Progressing first and False only after the threshold', () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const clock = { now: () => now };
    const problem = [{ reason: 'ResourcesUnhealthy', message: 'not healthy' }];
    const ok = systemComponentsCondition(undefined, [], { SeedSystemComponentsHealthy: 60_000 }, clock);
    expect(ok).toMatchObject({ type: 'SeedSystemComponentsHealthy', status: 'True' });
    const progressing = systemComponentsCondition([ok], problem, { SeedSystemComponentsHealthy: 60_000 }, clock);
    expect(progressing).toMatchObject({ status: 'Progressing', reason: 'ResourcesUnhealthy', message: 'not healthy' });
    now = new Date('2026-01-01T00:00:30Z');
    expect(
      systemComponentsCondition([progressing], problem, { SeedSystemComponentsHealthy: 60_000 }, clock).status,
    ).toBe('Progressing');
    now = new Date('2026-01-01T00:01:01Z');
    expect(
      systemComponentsCondition([progressing], problem, { SeedSystemComponentsHealthy: 60_000 }, clock).status,
    ).toBe('False');
    // Without a threshold, a failure is False at once.
    expect(systemComponentsCondition([ok], problem, {}, clock).status).toBe('False');
  });
});
