import { describe, expect, it } from 'vitest';
import type { Client } from '@gardener-ts/controller-runtime';
import { RequeueAfterError, type ActuatorContext } from '@gardener-ts/extensions';
import { createLogger } from '@gardener-ts/logging';
import { MemoryClient } from '../worker/memory-client.testing.js';
import { BastionActuator, RequeueWhileDeleting, RequeueWhileNotReady } from './actuator.js';
import { ConfigChecksumAnnotation, type BastionObject } from './objects.js';

const namespace = 'shoot--local--local';
const script = '#!/bin/bash -eu\necho "ssh-ed25519 AAAA" > /home/gardener/.ssh/authorized_keys\n';

function bastion(userData = script, cidr = '192.88.99.0/32'): BastionObject {
  return {
    apiVersion: 'extensions.gardener.cloud/v1alpha1',
    kind: 'Bastion',
    metadata: { name: 'cli-abc', namespace },
    spec: { type: 'local', userData: Buffer.from(userData).toString('base64'), ingress: [{ ipBlock: { cidr } }] },
  };
}

function context(seed: MemoryClient): ActuatorContext {
  return {
    client: seed as unknown as Client,
    log: createLogger({ name: 'test', level: 'silent' }),
    signal: new AbortController().signal,
  };
}

/** What the substrate does meanwhile: the service proxy publishes the Service's address, the kubelet runs the Pod. */
async function becomeReady(
  seed: MemoryClient,
  ingress = { ip: '127.0.0.1', ports: [{ port: 30022, protocol: 'TCP' }] },
) {
  const status = (kind: string, value: Record<string, unknown>) =>
    seed.patch({ kind } as never, { namespace, name: 'bastion-cli-abc' }, { type: 'merge', patch: { status: value } });
  await status('Service', { loadBalancer: { ingress: [ingress] } });
  await status('Pod', { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], podIP: '127.42.0.9' });
}

async function requeueOf(promise: Promise<unknown>): Promise<RequeueAfterError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RequeueAfterError);
  return err as RequeueAfterError;
}

describe('BastionActuator', () => {
  it("creates the bastion's objects in the shoot namespace and waits for its load balancer", async () => {
    const seed = new MemoryClient();
    const err = await requeueOf(new BastionActuator().reconcile(context(seed), bastion()));
    expect(err.requeueAfterMs).toBe(RequeueWhileNotReady);
    expect(err.message).toMatch(/load balancer/);

    const kinds = ['Secret', 'ServiceAccount', 'Role', 'RoleBinding', 'NetworkPolicy', 'Service', 'Pod'];
    for (const kind of kinds) expect(seed.find(kind, namespace, 'bastion-cli-abc'), kind).toBeDefined();

    const secret = seed.find('Secret', namespace, 'bastion-cli-abc')!;
    expect(Buffer.from(secret.data.userdata, 'base64').toString()).toBe(script);
    expect(JSON.parse(Buffer.from(secret.data.ingress, 'base64').toString())).toEqual([
      { ipBlock: { cidr: '192.88.99.0/32' } },
    ]);

    const pod = seed.find('Pod', namespace, 'bastion-cli-abc')!;
    expect(pod.metadata?.labels).toMatchObject({ app: 'bastion', bastion: 'cli-abc' });
    expect(pod.spec.serviceAccountName).toBe('bastion-cli-abc');
    expect(pod.spec.containers[0]).toMatchObject({
      image: 'gardener-ts/bastion',
      ports: [{ name: 'ssh', containerPort: 22 }],
      readinessProbe: { tcpSocket: { port: 'ssh' } },
      volumeMounts: [{ mountPath: '/etc/bastion' }],
    });
    expect(pod.spec.volumes).toEqual([{ name: 'bastion', secret: { secretName: 'bastion-cli-abc' } }]);

    const service = seed.find('Service', namespace, 'bastion-cli-abc')!;
    expect(service.spec).toMatchObject({
      type: 'LoadBalancer',
      selector: { app: 'bastion', bastion: 'cli-abc' },
      ports: [{ port: 22, targetPort: 'ssh' }],
    });
    const role = seed.find('Role', namespace, 'bastion-cli-abc')!;
    expect(role.rules).toEqual([{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }]);
    const policy = seed.find('NetworkPolicy', namespace, 'bastion-cli-abc')!;
    expect(policy.spec.egress).toContainEqual({
      to: [{ podSelector: { matchLabels: { app: 'machine' } } }],
      ports: [{ protocol: 'TCP', port: 22 }],
    });
  });

  it('waits for the Pod to be ready, then reports the load balancer address as status.ingress', async () => {
    const seed = new MemoryClient();
    const actuator = new BastionActuator({ image: 'example.org/bastion:v1' });
    await requeueOf(actuator.reconcile(context(seed), bastion()));
    await seed.patch({ kind: 'Service' } as never, { namespace, name: 'bastion-cli-abc' }, {
      type: 'merge',
      patch: { status: { loadBalancer: { ingress: [{ ip: '127.0.0.1' }] } } },
    } as never);
    expect((await requeueOf(actuator.reconcile(context(seed), bastion()))).message).toMatch(/Pod .* ready/);

    await becomeReady(seed);
    const result = await actuator.reconcile(context(seed), bastion());
    // The local load balancer answers on the node port, not 22: the Pod's own address, where the bastion listens on 22.
    expect(result).toEqual({ status: { ingress: { ip: '127.42.0.9' } } });
    expect(seed.find('Pod', namespace, 'bastion-cli-abc')!.spec.containers[0].image).toBe('example.org/bastion:v1');
  });

  it('reports a load balancer that serves port 22 itself as it is (the address only, no port statuses)', async () => {
    const seed = new MemoryClient();
    const actuator = new BastionActuator();
    await requeueOf(actuator.reconcile(context(seed), bastion()));
    await becomeReady(seed, { ip: '192.0.2.7', ports: [{ port: 22, protocol: 'TCP' }] });
    expect(await actuator.reconcile(context(seed), bastion())).toEqual({ status: { ingress: { ip: '192.0.2.7' } } });
  });

  it('replaces the Pod when the user data or the ingress ranges change', async () => {
    const seed = new MemoryClient();
    const actuator = new BastionActuator();
    await requeueOf(actuator.reconcile(context(seed), bastion()));
    await becomeReady(seed);
    await actuator.reconcile(context(seed), bastion());
    const before = seed.find('Pod', namespace, 'bastion-cli-abc')!.metadata?.annotations?.[ConfigChecksumAnnotation];

    expect(before).toMatch(/^[0-9a-f]{64}$/);
    await requeueOf(actuator.reconcile(context(seed), bastion(script, '10.0.0.0/8')));
    expect(seed.find('Pod', namespace, 'bastion-cli-abc')).toBeUndefined();
    await requeueOf(actuator.reconcile(context(seed), bastion(script, '10.0.0.0/8')));
    const after = seed.find('Pod', namespace, 'bastion-cli-abc')!.metadata?.annotations?.[ConfigChecksumAnnotation];
    expect(after).not.toBe(before);
    // The same spec again leaves the new Pod alone.
    await becomeReady(seed);
    await actuator.reconcile(context(seed), bastion(script, '10.0.0.0/8'));
    expect(seed.calls.filter((c) => c.verb === 'delete' && c.kind === 'Pod')).toHaveLength(1);
  });

  it('deletes every object and polls until they are gone', async () => {
    const seed = new MemoryClient();
    const actuator = new BastionActuator();
    await requeueOf(actuator.reconcile(context(seed), bastion()));
    const err = await requeueOf(actuator.delete(context(seed), bastion()));
    expect(err.requeueAfterMs).toBe(RequeueWhileDeleting);
    expect(err.message).toMatch(/7 bastion resources/);
    expect([...seed.objects.keys()]).toEqual([]);
    await expect(actuator.delete(context(seed), bastion())).resolves.toBeUndefined();
    // Forced deletion and migration do not wait.
    await requeueOf(actuator.reconcile(context(seed), bastion()));
    await expect(actuator.forceDelete(context(seed), bastion())).resolves.toBeUndefined();
    expect([...seed.objects.keys()]).toEqual([]);
  });
});
