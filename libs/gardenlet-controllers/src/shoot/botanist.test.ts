// The botanist's pure checks: which extension kinds the garden serves, when a Deployment has rolled out, and the
// load balancer address of the kube-apiserver Service as local mode and clouds report it.
import { describe, expect, it } from 'vitest';
import type { corev1beta1 } from '@gardener-ts/api';
import { Kinds, type ApiClient, type Client, type WatchEvent } from '@gardener-ts/controller-runtime';
import type { V1LoadBalancerIngress } from '@kubernetes/client-node';
import {
  kubeControllerManagerNotActive,
  deploymentNotRolledOut,
  etcdNotReady,
  isRegistered,
  loadBalancerURL,
  waitForObject,
  type ObjectWaitClient,
} from './botanist.js';

const registration = (resources: { kind: string; type: string }[]) =>
  ({ metadata: { name: 'provider-local' }, spec: { resources } }) as corev1beta1.ControllerRegistration;

describe('isRegistered', () => {
  it('finds the kind and type among the registrations', () => {
    const regs = [
      registration([
        { kind: 'Infrastructure', type: 'local' },
        { kind: 'Worker', type: 'local' },
      ]),
    ];
    expect(isRegistered(regs, 'Infrastructure', 'local')).toBe(true);
    expect(isRegistered(regs, 'Network', 'calico')).toBe(false);
    expect(isRegistered(regs, 'Infrastructure', 'aws')).toBe(false);
    expect(isRegistered([], 'Infrastructure', 'local')).toBe(false);
  });
});

describe('deploymentNotRolledOut', () => {
  const deployment = (status: Record<string, number>, replicas = 1, generation = 2) => ({
    metadata: { namespace: 'shoot--local--local', name: 'kube-apiserver', generation },
    spec: { replicas, selector: {}, template: {} },
    status,
  });

  it('is undefined once every replica is updated and available', () => {
    expect(
      deploymentNotRolledOut(
        deployment({ observedGeneration: 2, replicas: 1, updatedReplicas: 1, availableReplicas: 1 }),
      ),
    ).toBeUndefined();
  });

  it('names what is missing', () => {
    expect(deploymentNotRolledOut(deployment({ observedGeneration: 1 }))).toContain('has not observed its spec');
    expect(deploymentNotRolledOut(deployment({ observedGeneration: 2, updatedReplicas: 0 }))).toContain(
      '0/1 updated replicas',
    );
    expect(
      deploymentNotRolledOut(deployment({ observedGeneration: 2, updatedReplicas: 1, availableReplicas: 0 })),
    ).toContain('0/1 available replicas');
    expect(
      deploymentNotRolledOut(
        deployment({ observedGeneration: 2, replicas: 2, updatedReplicas: 1, availableReplicas: 1 }),
      ),
    ).toContain('still has 2 replicas');
  });
});

describe('loadBalancerURL', () => {
  it("is the local port the substrate's service proxy reports, or the cloud's address on 443", () => {
    const service = (ingress: V1LoadBalancerIngress[]) => ({
      spec: { ports: [{ port: 443 }] },
      status: { loadBalancer: { ingress } },
    });
    expect(loadBalancerURL(service([{ ip: '127.0.0.1', ports: [{ port: 31443, protocol: 'TCP' }] }]))).toBe(
      'https://127.0.0.1:31443',
    );
    expect(loadBalancerURL(service([{ hostname: 'lb.example.com' }]))).toBe('https://lb.example.com');
    expect(loadBalancerURL(service([]))).toBeUndefined();
    expect(loadBalancerURL({})).toBeUndefined();
  });
});

describe('etcdNotReady', () => {
  const etcd = (generation: number, observedGeneration: number, ready: boolean, operation?: string) => ({
    metadata: { generation, ...(operation ? { annotations: { 'gardener.cloud/operation': operation } } : {}) },
    status: { observedGeneration, ready },
  });

  it('is ready once the controller picked up the request, observed the generation and reports ready', () => {
    expect(etcdNotReady(etcd(3, 3, true))).toBeUndefined();
  });

  it('does not count a ready from before the last spec change (a hibernated etcd being scaled up)', () => {
    expect(etcdNotReady(etcd(4, 3, true))).toBe('has not observed generation 4 yet');
    expect(etcdNotReady(etcd(4, 4, true, 'reconcile'))).toBe('has not picked up the reconcile request yet');
    expect(etcdNotReady(etcd(4, 4, false))).toBe('is not ready yet');
    expect(
      etcdNotReady({
        metadata: { generation: 1 },
        status: { observedGeneration: 1, lastErrors: [{ description: 'no PV' }] },
      }),
    ).toBe('is not ready: no PV');
  });
});

describe('kubeControllerManagerNotActive', () => {
  const now = new Date('2026-11-29T10:00:00Z');
  const lease = (holderIdentity: string | undefined, renewTime: string | undefined) => ({
    spec: { holderIdentity, renewTime, leaseDurationSeconds: 15 },
  });
  it('is active while a leader renews its Lease within the Lease duration', () => {
    expect(kubeControllerManagerNotActive(lease('kcm-1', '2026-11-29T09:59:50.000000Z'), now)).toBeUndefined();
  });
  it('says why not: no Lease, no leader, or a leader that stopped renewing', () => {
    expect(kubeControllerManagerNotActive(undefined, now)).toBe('has no leader Lease yet');
    expect(kubeControllerManagerNotActive(lease(undefined, '2026-11-29T09:59:59Z'), now)).toBe('has no leader');
    expect(kubeControllerManagerNotActive(lease('kcm-0', '2026-11-29T09:59:40.000000Z'), now)).toBe(
      'its leader kcm-0 has not renewed the Lease since 2026-11-29T09:59:40.000000Z',
    );
  });
});

describe('waitForObject', () => {
  const rolledOut = (ready: boolean) => ({
    metadata: { namespace: 'shoot--local--local', name: 'kube-apiserver', generation: 1 },
    spec: { replicas: 1, selector: {}, template: {} },
    status: { observedGeneration: 1, replicas: 1, updatedReplicas: 1, availableReplicas: ready ? 1 : 0 },
  });
  const key = { namespace: 'shoot--local--local', name: 'kube-apiserver' };
  const notRolledOut = (d: unknown) => (d ? deploymentNotRolledOut(d as never) : 'does not exist');
  // Polls every 60 s at most for 1.5 s: a poll that sees the change would come too late (after 100, 300, 700, 1500 ms).
  const wait = { interval: 60_000, timeout: 1_500 };

  // A seed whose reads show the Deployment not rolled out for `pollsNotReady` reads; its watch (if any) announces the
  // rolled-out version after 50 ms.
  function seed(options: { watch?: 'announces' | 'breaks'; pollsNotReady?: number }): ObjectWaitClient {
    let reads = 0;
    const get = (async () => rolledOut(++reads > (options.pollsNotReady ?? Infinity))) as unknown as Client['get'];
    if (!options.watch) return { get };
    const watch: ApiClient['watch'] = async (_kind, opts, onEvent) => {
      expect(opts).toMatchObject({ namespace: key.namespace, fieldSelector: { 'metadata.name': key.name } });
      if (options.watch === 'breaks') throw new Error('watch broke');
      onEvent({ type: 'ADDED', object: rolledOut(false) } as unknown as WatchEvent<never>);
      await new Promise((resolve) => setTimeout(resolve, 50));
      onEvent({ type: 'MODIFIED', object: rolledOut(true) } as unknown as WatchEvent<never>);
      // Open until stopped, as a watch stream is.
      if (!opts.signal?.aborted) await new Promise((resolve) => opts.signal?.addEventListener('abort', resolve));
    };
    return { get, watch };
  }

  it('ends when the watch announces the ready version, before any poll sees it', async () => {
    const started = Date.now();
    await waitForObject(
      seed({ watch: 'announces' }),
      Kinds.Deployment,
      key,
      notRolledOut,
      wait,
      new AbortController().signal,
    );
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('polls as before without a watch, or when the watch breaks, with the reason in the timeout error', async () => {
    const signal = new AbortController().signal;
    await expect(waitForObject(seed({}), Kinds.Deployment, key, notRolledOut, wait, signal)).rejects.toThrow(
      'Deployment shoot--local--local/kube-apiserver: deployment shoot--local--local/kube-apiserver has 0/1 available replicas',
    );
    await waitForObject(seed({ watch: 'breaks', pollsNotReady: 2 }), Kinds.Deployment, key, notRolledOut, wait, signal);
  });

  it('stops with the caller’s abort', async () => {
    const abort = new AbortController();
    const waiting = waitForObject(
      seed({}),
      Kinds.Deployment,
      key,
      notRolledOut,
      { ...wait, timeout: 60_000 },
      abort.signal,
    );
    abort.abort();
    await expect(waiting).rejects.toThrow();
  });
});
