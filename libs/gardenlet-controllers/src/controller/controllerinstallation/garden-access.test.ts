import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { KubeConfig } from '@kubernetes/client-node';
import { parse } from 'yaml';
import type { KubernetesObject } from '@gardener-ts/controller-runtime';
import { annotationKey, isTokenRequestorSecret, TokenRequestorAnnotation } from '@gardener-ts/resourcemanager';
import {
  gardenAccessSecret,
  genericGardenClusterOf,
  genericGardenKubeconfig,
  genericGardenKubeconfigSecret,
  injectGenericGardenKubeconfig,
  mutateRenderedObjects,
  needsGardenKubeconfig,
} from './garden-access.js';

type Obj = KubernetesObject & Record<string, any>;

const NS = 'extension-ext-abc';
const deployment = (extra: Partial<Obj> = {}): Obj => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'ext', namespace: NS },
  spec: {
    template: {
      spec: {
        initContainers: [{ name: 'init', image: 'i' }],
        containers: [{ name: 'ext', image: 'e', env: [{ name: 'A', value: 'b' }] }],
      },
    },
  },
  ...extra,
});

describe('the garden access Secret', () => {
  it('asks the TokenRequestor of class garden for ServiceAccount extension-<installation>, labelled with the registration', () => {
    const secret = gardenAccessSecret(NS, 'ext-abc', 'provider-local');
    expect(secret.metadata).toMatchObject({ name: 'garden-access-extension', namespace: NS });
    // The gardenlet's TokenRequestor serves it (and gardener-resource-manager's, class shoot, does not).
    expect(isTokenRequestorSecret(secret, 'garden')).toBe(true);
    expect(isTokenRequestorSecret(secret, 'shoot')).toBe(false);
    const annotations = secret.metadata!.annotations!;
    expect(annotations[TokenRequestorAnnotation.ServiceAccountName]).toBe('extension-ext-abc');
    expect(JSON.parse(annotations[TokenRequestorAnnotation.ServiceAccountLabels]!)).toEqual({
      'controllerregistration.core.gardener.cloud/name': 'provider-local',
    });
    // The ServiceAccount's namespace is the seed's (the TokenRequestor decides it), and the token is not ours to write.
    expect(annotations[TokenRequestorAnnotation.ServiceAccountNamespace]).toBeUndefined();
    expect((secret as Obj).data).toBeUndefined();
  });
});

describe('the generic garden kubeconfig', () => {
  const garden = { server: 'https://garden.local.gardener.cloud:6443', caData: Buffer.from('PEM').toString('base64') };

  it('points at the garden with its CA and reads the token from the mounted file', () => {
    const kc = new KubeConfig();
    kc.loadFromString(genericGardenKubeconfig(garden));
    expect(kc.getCurrentContext()).toBe('garden');
    expect(kc.getCurrentCluster()).toMatchObject({ name: 'garden', server: garden.server, caData: garden.caData });
    const raw = parse(genericGardenKubeconfig(garden));
    expect(raw.users).toEqual([
      { name: 'extension', user: { tokenFile: '/var/run/secrets/gardener.cloud/garden/generic-kubeconfig/token' } },
    ]);
    expect(parse(genericGardenKubeconfig({ server: 'https://g', insecureSkipTLSVerify: true })).clusters[0]).toEqual({
      name: 'garden',
      cluster: { server: 'https://g', 'insecure-skip-tls-verify': true },
    });
  });

  it('is an immutable Secret named after its content, collectable once unused', () => {
    const a = genericGardenKubeconfigSecret(NS, genericGardenKubeconfig(garden)) as Obj;
    expect(a.metadata?.name).toMatch(/^generic-garden-kubeconfig-[0-9a-f]{8}$/);
    expect(a).toMatchObject({
      immutable: true,
      metadata: { namespace: NS, labels: { 'resources.gardener.cloud/garbage-collectable-reference': 'true' } },
    });
    expect(Buffer.from(a.data.kubeconfig, 'base64').toString()).toBe(genericGardenKubeconfig(garden));
    const server = fc.stringMatching(/^[a-z0-9.-]{1,30}$/).map((host) => `https://${host}:6443`);
    fc.assert(
      fc.property(server, server, (x, y) => {
        const nameOf = (server: string) => genericGardenKubeconfigSecret(NS, genericGardenKubeconfig({ server }));
        expect(nameOf(x).metadata?.name).toBe(nameOf(x).metadata?.name);
        if (x !== y) expect(nameOf(x).metadata?.name).not.toBe(nameOf(y).metadata?.name);
      }),
    );
  });

  it("takes the gardenlet's garden connection, with gardenClusterAddress and gardenClusterCACert overriding it", () => {
    const dir = mkdtempSync(join(tmpdir(), 'garden-ca-'));
    writeFileSync(join(dir, 'ca.crt'), 'CA-FROM-FILE');
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'g', server: 'https://10.0.0.1', caFile: join(dir, 'ca.crt'), skipTLSVerify: false }],
      users: [{ name: 'u', token: 't' }],
      contexts: [{ name: 'c', cluster: 'g', user: 'u' }],
      currentContext: 'c',
    });
    expect(genericGardenClusterOf(kc)).toEqual({
      server: 'https://10.0.0.1',
      caData: Buffer.from('CA-FROM-FILE').toString('base64'),
    });
    expect(
      genericGardenClusterOf(kc, { gardenClusterAddress: 'https://garden.example', gardenClusterCACert: 'Q0E=' }),
    ).toEqual({ server: 'https://garden.example', caData: 'Q0E=' });
  });
});

describe('garden kubeconfig injection', () => {
  it('is needed only with injectGardenKubeconfig and a workload that does not opt out', () => {
    const service: Obj = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: NS } };
    const optOut = deployment({
      metadata: { name: 'x', namespace: NS, labels: { 'extensions.gardener.cloud/inject-garden-kubeconfig': 'false' } },
    });
    expect(needsGardenKubeconfig(false, [deployment()])).toBe(false);
    expect(needsGardenKubeconfig(true, [service])).toBe(false);
    expect(needsGardenKubeconfig(true, [service, optOut])).toBe(false);
    expect(needsGardenKubeconfig(true, [service, deployment()])).toBe(true);
    expect(needsGardenKubeconfig(true, [{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } }])).toBe(true);
    expect(needsGardenKubeconfig(true, [{ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'c' } }])).toBe(
      true,
    );
  });

  it('mounts kubeconfig and token into every (init) container, sets GARDEN_KUBECONFIG and the reference annotations', () => {
    const d = deployment();
    injectGenericGardenKubeconfig(d, 'generic-garden-kubeconfig-12345678');
    const pod = d.spec.template.spec;
    expect(pod.volumes).toEqual([
      {
        name: 'garden-kubeconfig',
        projected: {
          defaultMode: 420,
          sources: [
            {
              secret: {
                name: 'generic-garden-kubeconfig-12345678',
                items: [{ key: 'kubeconfig', path: 'kubeconfig' }],
                optional: false,
              },
            },
            {
              secret: { name: 'garden-access-extension', items: [{ key: 'token', path: 'token' }], optional: false },
            },
          ],
        },
      },
    ]);
    for (const c of [...pod.initContainers, ...pod.containers]) {
      expect(c.volumeMounts).toEqual([
        {
          name: 'garden-kubeconfig',
          mountPath: '/var/run/secrets/gardener.cloud/garden/generic-kubeconfig',
          readOnly: true,
        },
      ]);
      expect(c.env).toContainEqual({
        name: 'GARDEN_KUBECONFIG',
        value: '/var/run/secrets/gardener.cloud/garden/generic-kubeconfig/kubeconfig',
      });
    }
    expect(pod.containers[0].env[0]).toEqual({ name: 'A', value: 'b' });
    const references = {
      [annotationKey('secret', 'generic-garden-kubeconfig-12345678')]: 'generic-garden-kubeconfig-12345678',
      [annotationKey('secret', 'garden-access-extension')]: 'garden-access-extension',
    };
    expect(d.metadata?.annotations).toEqual(references);
    expect(d.spec.template.metadata.annotations).toEqual(references);
  });

  it('leaves a workload alone that sets GARDEN_KUBECONFIG itself, and injecting twice changes nothing', () => {
    const own = deployment();
    own.spec.template.spec.containers[0].env.push({ name: 'GARDEN_KUBECONFIG', value: '/mine' });
    const before = structuredClone(own);
    injectGenericGardenKubeconfig(own, 'generic-garden-kubeconfig-12345678');
    expect(own).toEqual(before);

    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9-]{1,20}$/), fc.nat(3), (name, extraVolumes) => {
        const d = deployment();
        d.spec.template.spec.volumes = Array.from({ length: extraVolumes }, (_, i) => ({
          name: `v${i}`,
          emptyDir: {},
        }));
        injectGenericGardenKubeconfig(d, name);
        const once = structuredClone(d);
        d.spec.template.spec.containers[0].env = d.spec.template.spec.containers[0].env.filter(
          (e: { name: string }) => e.name !== 'GARDEN_KUBECONFIG',
        );
        d.spec.template.spec.initContainers[0].env = [];
        injectGenericGardenKubeconfig(d, name);
        expect(d.spec.template.spec.volumes).toEqual(once.spec.template.spec.volumes);
        expect(d.spec.template.spec.volumes).toHaveLength(extraVolumes + 1);
        expect(d.spec.template.spec.containers[0].volumeMounts).toHaveLength(1);
      }),
    );
  });

  it("mutates the extension namespace's apps and batch workloads only: SEED_NAME always, the kubeconfig on request", () => {
    const optOut = deployment({
      metadata: {
        name: 'no-garden',
        namespace: NS,
        labels: { 'extensions.gardener.cloud/inject-garden-kubeconfig': 'false' },
      },
    });
    const elsewhere = deployment({ metadata: { name: 'other', namespace: 'kube-system' } });
    const cronJob: Obj = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'cj', namespace: NS },
      spec: { jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c' }] } } } } },
    };
    const pod: Obj = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: NS },
      spec: { containers: [] },
    };
    const input = [deployment(), optOut, elsewhere, cronJob, pod];
    const snapshot = structuredClone(input);
    const out = mutateRenderedObjects(input, NS, 'local', { kubeconfigSecretName: 'generic-garden-kubeconfig-1' });
    expect(input).toEqual(snapshot);
    const envOf = (o: Obj, path: (o: Obj) => Obj[]) =>
      path(o).map((c) => Object.fromEntries((c.env ?? []).map((e: Obj) => [e.name, e.value])));
    const deploymentContainers = (o: Obj) => o.spec.template.spec.containers;
    expect(envOf(out[0] as Obj, deploymentContainers)[0]).toMatchObject({
      SEED_NAME: 'local',
      GARDEN_KUBECONFIG: '/var/run/secrets/gardener.cloud/garden/generic-kubeconfig/kubeconfig',
    });
    expect(envOf(out[1] as Obj, deploymentContainers)[0]).toEqual({ A: 'b', SEED_NAME: 'local' });
    expect((out[1] as Obj).spec.template.spec.volumes).toBeUndefined();
    expect(out[2]).toBe(elsewhere);
    expect(envOf(out[3] as Obj, (o) => o.spec.jobTemplate.spec.template.spec.containers)[0]).toMatchObject({
      SEED_NAME: 'local',
      GARDEN_KUBECONFIG: expect.any(String),
    });
    expect(out[4]).toBe(pod);

    const withoutGarden = mutateRenderedObjects([deployment()], NS, 'local') as Obj[];
    expect(envOf(withoutGarden[0]!, deploymentContainers)[0]).toEqual({ A: 'b', SEED_NAME: 'local' });
    expect(withoutGarden[0]!.spec.template.spec.volumes).toBeUndefined();
  });
});
