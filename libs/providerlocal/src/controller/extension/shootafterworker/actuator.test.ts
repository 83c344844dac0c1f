import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinImageMap } from '@gardener-ts/local-cluster';
import { LocalExtShootAfterWorkerImage, localExtShootAfterWorkerObjects } from './actuator.js';

describe('local-ext-shoot-after-worker', () => {
  const [deployment] = localExtShootAfterWorkerObjects() as any[];

  it('puts a one-replica Deployment local-ext-shoot-after-worker into the shoot kube-system', () => {
    expect(deployment).toMatchObject({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'local-ext-shoot-after-worker', namespace: 'kube-system' },
      spec: { replicas: 1, revisionHistoryLimit: 2 },
    });
    // The selector selects the template's Pods.
    expect(deployment.spec.template.metadata.labels).toMatchObject(deployment.spec.selector.matchLabels);
  });

  it('runs an image the local substrate knows, as a program that stays up (nats-server, no command of its own)', () => {
    const container = deployment.spec.template.spec.containers[0];
    expect(container.image).toBe(LocalExtShootAfterWorkerImage);
    expect(container.command).toBeUndefined();
    const resolved = builtinImageMap({ workspace: '/nonexistent' }).resolve(container.image);
    expect(resolved).toBeDefined();
    expect(basename(resolved!.command[0]!)).toBe('nats-server');
  });
});
