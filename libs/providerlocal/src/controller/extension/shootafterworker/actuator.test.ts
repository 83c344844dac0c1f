// provider-local's `local-ext-shoot-after-worker`: the objects it puts into the shoot.
import { describe, expect, it } from 'vitest';
import { builtinImageMap } from '@gardener-ts/local-cluster';
import { localExtShootAfterWorkerObjects } from './actuator.js';

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

  it("runs Gardener's container: its alpine image with `/bin/sh -c 'sleep 3600'`, no grace period", () => {
    const { spec } = deployment.spec.template;
    expect(spec.terminationGracePeriodSeconds).toBe(0);
    expect(spec.containers).toEqual([
      {
        name: 'local-ext-shoot-after-worker',
        image: 'europe-docker.pkg.dev/gardener-project/releases/3rd/alpine:3.19.1',
        command: ['/bin/sh', '-c', 'sleep 3600'],
      },
    ]);
  });

  it('runs on the local substrate, whose image map runs the container’s own command on the host for this image', () => {
    const [container] = deployment.spec.template.spec.containers;
    expect(builtinImageMap({ workspace: '/nonexistent' }).resolve(container.image)?.entry.command).toBe('container');
  });
});
