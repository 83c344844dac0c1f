import { describe, expect, it } from 'vitest';
import { ApiError } from '@gardener-ts/controller-runtime';
import type { HealthCheckContext } from '@gardener-ts/extensions';
import { machineControllerCheck, machineControllerShootAccessCheck } from './machine-controller.js';

const kubeconfig = (token?: string) =>
  Buffer.from(
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'shoot', cluster: { server: 'https://127.0.0.1:1' } }],
      users: [{ name: 'gardener', user: token ? { token } : {} }],
      contexts: [{ name: 'shoot', context: { cluster: 'shoot', user: 'gardener' } }],
      'current-context': 'shoot',
    }),
  ).toString('base64');

const ctx = (objects: { deployments?: unknown[]; secret?: unknown }): HealthCheckContext => ({
  seedClient: {
    get: async (kind: { kind: string }, key: { namespace?: string; name: string }) => {
      if (kind.kind === 'Secret' && key.name === 'gardener' && objects.secret) return objects.secret;
      throw new ApiError(404, 'NotFound', `${kind.kind} ${key.name} not found`);
    },
    list: async () => ({ items: objects.deployments ?? [] }),
  } as unknown as HealthCheckContext['seedClient'],
  namespace: 'shoot--p--s',
  object: { metadata: { name: 'w', namespace: 'shoot--p--s' } } as HealthCheckContext['object'],
});

describe('machineControllerCheck (ControlPlaneHealthy)', () => {
  it('is False when the machine controller does not run in provider-local', async () => {
    const result = await machineControllerCheck(false)(ctx({}));
    expect(result.status).toBe('False');
    expect(result.detail).toMatch(/does not run in provider-local/);
  });

  it('is False while a MachineDeployment has not been observed, True once all are', async () => {
    const md = (observed: number) => ({
      metadata: { name: 'pool', generation: 2 },
      status: { observedGeneration: observed },
    });
    expect(await machineControllerCheck(true)(ctx({ deployments: [md(1)] }))).toEqual({
      status: 'False',
      detail: 'machine deployment "pool" has not been observed by the machine controller yet (1/2)',
    });
    expect(await machineControllerCheck(true)(ctx({ deployments: [md(2)] }))).toEqual({ status: 'True' });
  });
});

describe('machineControllerShootAccessCheck (SystemComponentsHealthy)', () => {
  it('is False without the shoot access Secret or without a token in it, True with one', async () => {
    const check = machineControllerShootAccessCheck();
    expect((await check(ctx({}))).detail).toBe(
      'the shoot access Secret "gardener" of the machine controller in namespace "shoot--p--s" not found',
    );
    const noToken = await check(ctx({ secret: { data: { kubeconfig: kubeconfig() } } }));
    expect(noToken.status).toBe('False');
    expect(noToken.detail).toMatch(/has no token yet/);
    expect(await check(ctx({ secret: { data: { kubeconfig: kubeconfig('t0ken') } } }))).toEqual({ status: 'True' });
  });
});
