// End to end: the built resource-manager's NetworkPolicy controller (Gardener's example configuration: ingress
// controller in namespace default labelled foo=bar) against a local target API server. The Service, Ingress and
// NetworkPolicies are those of the seed document's examples, transcribed here field for field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { networkPolicySeedExamples } from '@gardener-ts/resourcemanager';
import { NamespaceK, getOrUndefined, startLandscape, waitFor, type Landscape } from './harness.js';

type Obj = KubernetesObject & { spec?: any };
const NetworkPolicyK = kind<Obj>('networking.k8s.io/v1', 'NetworkPolicy');
const ServiceK = kind<Obj>('v1', 'Service');
const IngressK = kind<Obj>('networking.k8s.io/v1', 'Ingress');

const NS_SELECTORS = 'networking.resources.gardener.cloud/namespace-selectors';
const FROM_WORLD = 'networking.resources.gardener.cloud/from-world-to-ports';

// The document's examples, shared with the library's unit test: Service and Ingress in, NetworkPolicies out.
const seedService = networkPolicySeedExamples.seedService.plain as Obj;
const seedIngress = networkPolicySeedExamples.seedIngress as Obj;
const samePolicies = networkPolicySeedExamples.sameNamespacePolicies as Obj[];
const crossPolicies = networkPolicySeedExamples.crossNamespacePolicies as Obj[];
const worldPolicy = networkPolicySeedExamples.fromWorldPolicy as Obj[];
const ingressPolicies = networkPolicySeedExamples.ingressControllerPolicies as Obj[];

let land: Landscape;
const key = (o: Obj) => `${o.metadata?.namespace}/${o.metadata?.name}`;
const OWNER = {
  'networking.resources.gardener.cloud/service-name': 'gardener-resource-manager',
  'networking.resources.gardener.cloud/service-namespace': 'a',
};

/** The generated policies of the seed Service, once exactly `expected` exist (by namespace/name). */
async function policiesBecome(expected: Obj[]): Promise<Record<string, Obj>> {
  const want = expected.map(key).sort().join();
  return waitFor(
    `policies ${want}`,
    async () => {
      const items = (await land.tgt.list(NetworkPolicyK, { labelSelector: OWNER })).items;
      return items.map(key).sort().join() === want ? Object.fromEntries(items.map((p) => [key(p), p])) : undefined;
    },
    { timeoutMs: 20_000 },
  );
}

/** Each expected policy as the cluster has it: the fields the document shows are equal, and the owner labels set. */
function expectAsInSeed(actual: Record<string, Obj>, expected: Obj[]) {
  for (const want of expected) {
    const got = actual[key(want)];
    expect(
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: {
          name: got.metadata?.name,
          namespace: got.metadata?.namespace,
          ...(want.metadata?.annotations ? { annotations: got.metadata?.annotations } : {}),
        },
        spec: got.spec,
      },
      key(want),
    ).toEqual(want);
    expect(got.metadata?.labels, key(want)).toEqual(OWNER);
  }
}

async function annotateService(annotations: Record<string, string | null>) {
  await land.tgt.patch(
    ServiceK,
    { namespace: 'a', name: 'gardener-resource-manager' },
    { type: 'merge', patch: { metadata: { annotations } } },
  );
}

beforeAll(async () => {
  land = await startLandscape();
  for (const name of ['a', 'b']) await land.tgt.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  await land.start();
}, 60_000);

afterAll(async () => {
  if (land?.app && process.env.RM_E2E_DEBUG) console.log(land.app.output());
  await land?.stop();
});

describe('NetworkPolicy controller: the seed examples', () => {
  it('creates the two policies of the first example for the Service', async () => {
    await land.tgt.create(structuredClone(seedService));
    expectAsInSeed(await policiesBecome(samePolicies), samePolicies);
  });

  it('adds the cross-namespace policies for namespace-selectors, and the from-world policy', async () => {
    await annotateService({ [NS_SELECTORS]: '[{"matchLabels":{"kubernetes.io/metadata.name":"b"}}]' });
    expectAsInSeed(await policiesBecome([...samePolicies, ...crossPolicies]), [...samePolicies, ...crossPolicies]);
    await annotateService({ [FROM_WORLD]: '[{"port":"10250","protocol":"TCP"}]' });
    const all = [...samePolicies, ...crossPolicies, ...worldPolicy];
    expectAsInSeed(await policiesBecome(all), all);
  });

  it('adds the ingress controller policies when an Ingress exposes the Service', async () => {
    await land.tgt.create(structuredClone(seedIngress));
    const all = [...samePolicies, ...crossPolicies, ...worldPolicy, ...ingressPolicies];
    expectAsInSeed(await policiesBecome(all), all);
  });

  it('reverts a manual change and recreates a deleted policy', async () => {
    const name = { namespace: 'a', name: 'ingress-to-gardener-resource-manager-tcp-10250' };
    await land.tgt.patch(NetworkPolicyK, name, {
      type: 'merge',
      patch: { spec: { podSelector: { matchLabels: { app: 'other' } } } },
    });
    await waitFor('manual change reverted', async () =>
      (await land.tgt.get(NetworkPolicyK, name)).spec?.podSelector?.matchLabels?.app === 'gardener-resource-manager'
        ? true
        : undefined,
    );
    expect((await land.tgt.get(NetworkPolicyK, name)).spec.podSelector).toEqual({
      matchLabels: { app: 'gardener-resource-manager' },
    });
    await land.tgt.delete(NetworkPolicyK, name);
    await waitFor('deleted policy recreated', () =>
      getOrUndefined(land.tgt, NetworkPolicyK, name.namespace, name.name),
    );
  });

  it('removes the policies of an annotation, an Ingress and finally the Service when they go away', async () => {
    await annotateService({ [NS_SELECTORS]: null });
    expect(await getOrUndefined(land.tgt, NamespaceK, undefined, 'b')).toBeDefined();
    await policiesBecome([...samePolicies, ...worldPolicy, ...ingressPolicies]);
    await annotateService({ [FROM_WORLD]: null });
    await policiesBecome([...samePolicies, ...ingressPolicies]);
    await land.tgt.delete(IngressK, { namespace: 'a', name: 'gardener-resource-manager' });
    await policiesBecome(samePolicies);
    await land.tgt.delete(ServiceK, { namespace: 'a', name: 'gardener-resource-manager' });
    await policiesBecome([]);
  });
});

describe('NetworkPolicy controller: aliases', () => {
  it('selects clients by from-<alias>-allowed-ports and the namespace alias across namespaces', async () => {
    await land.tgt.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: 'bar0',
        namespace: 'b',
        annotations: {
          'networking.resources.gardener.cloud/from-all-bars-allowed-ports': '[{"port":8080,"protocol":"TCP"}]',
          [NS_SELECTORS]: '[{"matchLabels":{"kubernetes.io/metadata.name":"a"}}]',
          'networking.resources.gardener.cloud/pod-label-selector-namespace-alias': 'all-bs',
        },
      },
      spec: { selector: { app: 'bar0' }, ports: [{ port: 80, targetPort: 8080 }] },
    });
    const egress = await waitFor('egress policy in a', () =>
      getOrUndefined(land.tgt, NetworkPolicyK, 'a', 'egress-to-b-bar0-tcp-8080-via-all-bars'),
    );
    expect(egress.spec).toEqual({
      podSelector: { matchLabels: { 'networking.resources.gardener.cloud/to-all-bs-all-bars': 'allowed' } },
      egress: [
        {
          to: [
            {
              podSelector: { matchLabels: { app: 'bar0' } },
              namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'b' } },
            },
          ],
          ports: [{ port: 8080, protocol: 'TCP' }],
        },
      ],
      policyTypes: ['Egress'],
    });
    const same = await waitFor('egress policy in b', () =>
      getOrUndefined(land.tgt, NetworkPolicyK, 'b', 'egress-to-bar0-tcp-8080-via-all-bars'),
    );
    expect(same.spec.podSelector).toEqual({
      matchLabels: { 'networking.resources.gardener.cloud/to-all-bars': 'allowed' },
    });
    expect(await getOrUndefined(land.tgt, NetworkPolicyK, 'a', 'egress-to-b-bar0-tcp-8080')).toBeDefined();
  });

  it('follows namespace labels: a namespace labelled later gets its policies, unlabelled it loses them', async () => {
    await land.tgt.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'a', annotations: { [NS_SELECTORS]: '[{"matchLabels":{"team":"x"}}]' } },
      spec: { selector: { app: 'web' }, ports: [{ port: 8080 }] },
    });
    await waitFor('same-namespace policy', () =>
      getOrUndefined(land.tgt, NetworkPolicyK, 'a', 'egress-to-web-tcp-8080'),
    );
    await land.tgt.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'c' } });
    await land.tgt.patch(NamespaceK, { name: 'c' }, { type: 'merge', patch: { metadata: { labels: { team: 'x' } } } });
    await waitFor('policy in the labelled namespace', () =>
      getOrUndefined(land.tgt, NetworkPolicyK, 'c', 'egress-to-a-web-tcp-8080'),
    );
    expect(await getOrUndefined(land.tgt, NetworkPolicyK, 'a', 'ingress-to-web-tcp-8080-from-c')).toBeDefined();
    await land.tgt.patch(NamespaceK, { name: 'c' }, { type: 'merge', patch: { metadata: { labels: { team: null } } } });
    await waitFor(
      'policies gone',
      async () =>
        !(await getOrUndefined(land.tgt, NetworkPolicyK, 'c', 'egress-to-a-web-tcp-8080')) &&
        !(await getOrUndefined(land.tgt, NetworkPolicyK, 'a', 'ingress-to-web-tcp-8080-from-c')),
    );
  });
});
