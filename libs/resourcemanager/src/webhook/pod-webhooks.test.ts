// The pod webhooks: each case of the seed — mutated, not mutated, opted out.
import { describe, expect, it } from 'vitest';
import type { AdmissionRequest, AdmissionResult, KubernetesObject } from '@gardener-ts/controller-runtime';
import { kubernetesServiceHost } from './kubernetes-service-host.js';
import { podSchedulerName } from './pod-scheduler-name.js';
import { podTopologySpreadConstraints } from './pod-topology-spread-constraints.js';
import { projectedTokenMount } from './projected-token-mount.js';
import { seccompProfile } from './seccomp-profile.js';
import { systemComponentsConfig } from './system-components-config.js';

const pod = (spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'n', ...metadata },
    spec: { containers: [{ name: 'c' }], ...spec },
  }) as KubernetesObject;
const req = (object: KubernetesObject): AdmissionRequest => ({
  uid: '1',
  kind: { group: '', version: 'v1', kind: 'Pod' },
  resource: { group: '', version: 'v1', resource: 'pods' },
  namespace: 'n',
  operation: 'CREATE',
  userInfo: {},
  object,
});
const out = (r: AdmissionResult) => (r.allowed ? (r.patched as any) : undefined);

describe('kubernetes-service-host', () => {
  it('injects KUBERNETES_SERVICE_HOST into containers and init containers, keeping an explicit one', () => {
    const p = pod({
      initContainers: [{ name: 'i' }],
      containers: [{ name: 'c' }, { name: 'd', env: [{ name: 'KUBERNETES_SERVICE_HOST', value: 'own' }] }],
    });
    const spec = out(kubernetesServiceHost(req(p), 'api.example.com')).spec;
    expect(spec.initContainers[0].env).toEqual([{ name: 'KUBERNETES_SERVICE_HOST', value: 'api.example.com' }]);
    expect(spec.containers[0].env).toEqual([{ name: 'KUBERNETES_SERVICE_HOST', value: 'api.example.com' }]);
    expect(spec.containers[1].env).toEqual([{ name: 'KUBERNETES_SERVICE_HOST', value: 'own' }]);
  });
  it('leaves pods labelled inject=disable alone', () => {
    expect(
      out(
        kubernetesServiceHost(
          req(pod({}, { labels: { 'apiserver-proxy.networking.gardener.cloud/inject': 'disable' } })),
          'h',
        ),
      ),
    ).toBeUndefined();
  });
});

describe('projected-token-mount', () => {
  const sa = { automountServiceAccountToken: false };
  const withSA = (extra: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) =>
    pod({ serviceAccountName: 'app', ...extra }, metadata);

  it('adds the projected volume and mounts it into every container', () => {
    const spec = out(
      projectedTokenMount(req(withSA({ initContainers: [{ name: 'i' }] })), {
        serviceAccount: sa,
        expirationSeconds: 43200,
      }),
    ).spec;
    expect(spec.volumes).toEqual([
      {
        name: 'kube-api-access-gardener',
        projected: {
          defaultMode: 420,
          sources: [
            { serviceAccountToken: { expirationSeconds: 43200, path: 'token' } },
            { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            {
              downwardAPI: {
                items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' }, path: 'namespace' }],
              },
            },
          ],
        },
      },
    ]);
    const mount = {
      name: 'kube-api-access-gardener',
      mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
      readOnly: true,
    };
    expect(spec.containers[0].volumeMounts).toEqual([mount]);
    expect(spec.initContainers[0].volumeMounts).toEqual([mount]);
  });
  it('takes expirationSeconds from the pod annotation over the configuration', () => {
    const p = withSA(
      {},
      { annotations: { 'projected-token-mount.resources.gardener.cloud/expiration-seconds': '3600' } },
    );
    expect(
      out(projectedTokenMount(req(p), { serviceAccount: sa, expirationSeconds: 43200 })).spec.volumes[0].projected
        .sources[0].serviceAccountToken.expirationSeconds,
    ).toBe(3600);
  });
  it.each([
    [
      'the pod is labelled skip=true',
      withSA({}, { labels: { 'projected-token-mount.resources.gardener.cloud/skip': 'true' } }),
      sa,
    ],
    ['the service account is default', pod({ serviceAccountName: 'default' }), sa],
    ['no service account is named', pod(), sa],
    ['the service account automounts', withSA(), { automountServiceAccountToken: true }],
    ['the service account does not say', withSA(), {}],
    ['a kube-api-access- volume exists', withSA({ volumes: [{ name: 'kube-api-access-xyz' }] }), sa],
  ])('does nothing when %s', (_case, p, serviceAccount) => {
    expect(out(projectedTokenMount(req(p), { serviceAccount, expirationSeconds: 43200 }))).toBeUndefined();
  });
});

describe('pod-topology-spread-constraints', () => {
  const tsc = {
    maxSkew: 1,
    topologyKey: 'topology.kubernetes.io/zone',
    whenUnsatisfiable: 'DoNotSchedule',
    labelSelector: { matchLabels: { app: 'a' } },
  };
  it('adds the pod-template-hash to every constraint (the seed example)', () => {
    const p = pod({ topologySpreadConstraints: [tsc] }, { labels: { 'pod-template-hash': '123abc' } });
    expect(
      out(podTopologySpreadConstraints(req(p))).spec.topologySpreadConstraints[0].labelSelector.matchLabels,
    ).toEqual({ app: 'a', 'pod-template-hash': '123abc' });
  });
  it('does nothing without the hash label, and for pods labelled skip', () => {
    expect(out(podTopologySpreadConstraints(req(pod({ topologySpreadConstraints: [tsc] }))))).toBeUndefined();
    const skipped = pod(
      { topologySpreadConstraints: [tsc] },
      { labels: { 'pod-template-hash': 'x', 'topology-spread-constraints.resources.gardener.cloud/skip': '' } },
    );
    expect(out(podTopologySpreadConstraints(req(skipped)))).toBeUndefined();
  });
});

describe('system-components-config', () => {
  const input = {
    podNodeSelector: { 'worker.gardener.cloud/system-components': 'true' },
    podTolerations: [{ key: 'custom', operator: 'Exists' as const }],
    nodeTaints: [
      { key: 'dedicated', value: 'system', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' },
      { key: 'ToBeDeletedByClusterAutoscaler', effect: 'NoSchedule' },
    ],
  };
  it('adds the node selector, configured tolerations and tolerations for the nodes’ taints', () => {
    const spec = out(
      systemComponentsConfig(req(pod({ tolerations: [{ key: 'custom', operator: 'Exists' }] })), input),
    ).spec;
    expect(spec.nodeSelector).toEqual({ 'worker.gardener.cloud/system-components': 'true' });
    expect(spec.tolerations).toEqual([
      { key: 'custom', operator: 'Exists' },
      { key: 'dedicated', operator: 'Equal', value: 'system', effect: 'NoSchedule' },
    ]);
  });
  it('leaves DaemonSet pods and pods labelled skip=true alone', () => {
    const ds = pod(
      {},
      { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'd', uid: 'u', controller: true }] },
    );
    expect(out(systemComponentsConfig(req(ds), input))).toBeUndefined();
    expect(
      out(
        systemComponentsConfig(
          req(pod({}, { labels: { 'system-components-config.resources.gardener.cloud/skip': 'true' } })),
          input,
        ),
      ),
    ).toBeUndefined();
  });
});

describe('pod-scheduler-name and seccomp-profile', () => {
  it('sets the scheduler name unless the pod names its own', () => {
    expect(out(podSchedulerName(req(pod()), 'bin-packing')).spec.schedulerName).toBe('bin-packing');
    expect(
      out(podSchedulerName(req(pod({ schedulerName: 'default-scheduler' })), 'bin-packing')).spec.schedulerName,
    ).toBe('bin-packing');
    expect(out(podSchedulerName(req(pod({ schedulerName: 'mine' })), 'bin-packing'))).toBeUndefined();
  });
  it('defaults the seccomp profile to RuntimeDefault, unless set or skipped', () => {
    expect(out(seccompProfile(req(pod()))).spec.securityContext).toEqual({
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(
      out(seccompProfile(req(pod({ securityContext: { seccompProfile: { type: 'Unconfined' } } })))),
    ).toBeUndefined();
    expect(
      out(seccompProfile(req(pod({}, { labels: { 'seccompprofile.resources.gardener.cloud/skip': '' } })))),
    ).toBeUndefined();
  });
});
