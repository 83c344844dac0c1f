// endpoint-slice hints (mutating), CRD deletion protection and extension validation (validating).
import { describe, expect, it } from 'vitest';
import type { AdmissionRequest, KubernetesObject } from '@gardener-ts/controller-runtime';
import { crdDeletionProtection } from './crd-deletion-protection.js';
import { endpointSliceHints } from './endpoint-slice-hints.js';
import { extensionValidation } from './extension-validation.js';

const req = (
  group: string,
  version: string,
  kind: string,
  resource: string,
  operation: AdmissionRequest['operation'],
  object?: KubernetesObject,
  oldObject?: KubernetesObject,
): AdmissionRequest => ({
  uid: '1',
  kind: { group, version, kind },
  resource: { group, version, resource },
  name: 'x',
  operation,
  userInfo: {},
  object,
  oldObject,
});

describe('endpoint-slice-hints', () => {
  const slice = (labels: Record<string, string>) =>
    ({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'example-hints', labels },
      endpoints: [
        { addresses: ['10.1.2.3'], zone: 'zone-a' },
        { addresses: ['10.1.2.4'], zone: 'zone-b' },
        { addresses: ['10.1.2.5'] },
      ],
    }) as KubernetesObject;
  it('hints every endpoint for its own zone (the seed example)', () => {
    const r = endpointSliceHints(
      req(
        'discovery.k8s.io',
        'v1',
        'EndpointSlice',
        'endpointslices',
        'CREATE',
        slice({ 'endpoint-slice-hints.resources.gardener.cloud/consider': 'true' }),
      ),
    );
    expect((r as any).patched.endpoints.map((e: any) => e.hints)).toEqual([
      { forZones: [{ name: 'zone-a' }] },
      { forZones: [{ name: 'zone-b' }] },
      undefined,
    ]);
  });
  it('leaves slices without the consider label alone', () => {
    expect(
      (endpointSliceHints(req('discovery.k8s.io', 'v1', 'EndpointSlice', 'endpointslices', 'CREATE', slice({}))) as any)
        .patched,
    ).toBeUndefined();
  });
});

describe('crd-deletion-protection', () => {
  const obj = (labels: Record<string, string> = {}, annotations: Record<string, string> = {}) => ({
    apiVersion: 'x',
    kind: 'X',
    metadata: { name: 'infra', labels, annotations },
  });
  const confirmed = { 'confirmation.gardener.cloud/deletion': 'true' };
  const crdDelete = (o: KubernetesObject) =>
    crdDeletionProtection(
      req(
        'apiextensions.k8s.io',
        'v1',
        'CustomResourceDefinition',
        'customresourcedefinitions',
        'DELETE',
        undefined,
        o,
      ),
      [o],
    );
  const infraDelete = (...os: KubernetesObject[]) =>
    crdDeletionProtection(
      req('extensions.gardener.cloud', 'v1alpha1', 'Infrastructure', 'infrastructures', 'DELETE'),
      os,
    );

  it('refuses deleting a protected CRD without confirmation, allows it with', () => {
    const refused = crdDelete(obj({ 'gardener.cloud/deletion-protected': 'true' }));
    expect(refused.allowed).toBe(false);
    expect(!refused.allowed && refused.message).toContain('confirmation.gardener.cloud/deletion=true');
    expect(crdDelete(obj({ 'gardener.cloud/deletion-protected': 'true' }, confirmed)).allowed).toBe(true);
  });
  it('allows deleting an unprotected CRD', () => {
    expect(crdDelete(obj()).allowed).toBe(true);
  });
  it('refuses deleting extension resources (also in a collection) unless every one is confirmed', () => {
    expect(infraDelete(obj()).allowed).toBe(false);
    expect(infraDelete(obj({}, confirmed)).allowed).toBe(true);
    expect(infraDelete(obj({}, confirmed), obj()).allowed).toBe(false);
    const etcd = crdDeletionProtection(req('druid.gardener.cloud', 'v1alpha1', 'Etcd', 'etcds', 'DELETE'), [obj()]);
    expect(etcd.allowed).toBe(false);
  });
  it('ignores other operations and resources', () => {
    expect(
      crdDeletionProtection(
        req('extensions.gardener.cloud', 'v1alpha1', 'Infrastructure', 'infrastructures', 'UPDATE'),
        [obj()],
      ).allowed,
    ).toBe(true);
    expect(crdDeletionProtection(req('', 'v1', 'ConfigMap', 'configmaps', 'DELETE'), [obj()]).allowed).toBe(true);
  });
});

describe('extension-validation', () => {
  const dns = (spec: Record<string, unknown>) =>
    ({
      apiVersion: 'extensions.gardener.cloud/v1alpha1',
      kind: 'DNSRecord',
      metadata: { name: 'r' },
      spec,
    }) as KubernetesObject;
  const valid = {
    type: 'aws-route53',
    secretRef: { name: 's' },
    name: 'api.example.com',
    recordType: 'A',
    values: ['1.2.3.4'],
  };
  const create = (o: KubernetesObject) =>
    extensionValidation(req('extensions.gardener.cloud', 'v1alpha1', 'DNSRecord', 'dnsrecords', 'CREATE', o));

  it('accepts a valid resource', () => {
    expect(create(dns(valid)).allowed).toBe(true);
  });
  it('refuses missing required fields and invalid values', () => {
    const r = create(dns({ ...valid, type: '', values: ['not-an-ip'] }));
    expect(r.allowed).toBe(false);
    expect(!r.allowed && r.message).toContain('spec.type: Required value');
    expect(!r.allowed && r.message).toContain('spec.values[0]: Invalid value: "not-an-ip"');
  });
  it('refuses changing an immutable field', () => {
    const r = extensionValidation(
      req(
        'extensions.gardener.cloud',
        'v1alpha1',
        'DNSRecord',
        'dnsrecords',
        'UPDATE',
        dns({ ...valid, name: 'other.example.com' }),
        dns(valid),
      ),
    );
    expect(!r.allowed && r.message).toContain('spec.name: Invalid value: field is immutable');
  });
  it('checks the CIDRs of a Network', () => {
    const net = {
      apiVersion: 'extensions.gardener.cloud/v1alpha1',
      kind: 'Network',
      metadata: { name: 'n' },
      spec: { type: 'calico', podCIDR: '100.96.0.0/11', serviceCIDR: '10.0.0.0/40' },
    };
    const r = extensionValidation(req('extensions.gardener.cloud', 'v1alpha1', 'Network', 'networks', 'CREATE', net));
    expect(!r.allowed && r.message).toContain('spec.serviceCIDR: Invalid value: "10.0.0.0/40"');
  });
});
