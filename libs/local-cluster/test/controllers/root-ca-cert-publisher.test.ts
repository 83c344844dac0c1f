// kube-controller-manager's root-ca-cert-publisher against the local API server, as a shoot's kube-controller-manager
// runs it with --root-ca-file (the shoot's CA bundle): every namespace's `kube-root-ca.crt` holds that bundle, not the
// CA the API server publishes itself when it creates a namespace, and a deleted or edited ConfigMap comes back. The
// API server never overwrites the ConfigMap, so once published it stays put (the two do not fight).
import { ConfigMapKind, ServiceAccountKind, type ConfigMap } from '@gardener-ts/controller-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESCRIPTION } from '../../src/controllers/rootcacertpublisher/publish.js';
import { type Harness, startHarness } from './support/harness.js';

const ROOT_CA = '-----BEGIN CERTIFICATE-----\nMIIBshootCAbundleForTests\n-----END CERTIFICATE-----\n';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// With --use-service-account-credentials it writes as kube-system/root-ca-cert-publisher, whose kube role may only
// create and update ConfigMaps (reads come from the manager's cache).
describe.concurrent.each([
  ['with the controller manager identity', false],
  ['as ServiceAccount root-ca-cert-publisher (kube RBAC)', true],
])('root CA publisher %s', (_, useServiceAccountCredentials) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(['root-ca-cert-publisher'], { rootCA: ROOT_CA, useServiceAccountCredentials });
  });
  afterAll(() => h?.stop());

  const rootCAOf = (namespace: string, check: (cm: ConfigMap) => boolean = (cm) => cm.data?.['ca.crt'] === ROOT_CA) =>
    h.eventually(
      `kube-root-ca.crt of ${namespace} to hold the root CA`,
      ConfigMapKind,
      {
        namespace,
        name: 'kube-root-ca.crt',
      },
      check,
    );

  it.sequential('publishes the root CA into namespaces that exist and ones created later', async () => {
    expect(h.cluster.server.credentials.ca.certPem).not.toBe(ROOT_CA);
    if (useServiceAccountCredentials)
      await h.api.get(ServiceAccountKind, { namespace: 'kube-system', name: 'root-ca-cert-publisher' });
    for (const ns of ['default', 'kube-system']) await rootCAOf(ns);
    await h.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'tenant' } });
    const cm = await rootCAOf('tenant');
    expect(cm.data).toEqual({ 'ca.crt': ROOT_CA });
    expect(cm.metadata?.annotations?.['kubernetes.io/description']).toBe(DESCRIPTION);
    // Settled: neither the publisher nor the API server writes it again.
    await sleep(1000);
    const later = await h.api.get(ConfigMapKind, { namespace: 'tenant', name: 'kube-root-ca.crt' });
    expect(later.metadata?.resourceVersion).toBe(cm.metadata?.resourceVersion);
  });

  it.sequential('restores the ConfigMap when it is deleted or edited', async () => {
    const before = await rootCAOf('tenant');
    await h.api.delete(ConfigMapKind, { namespace: 'tenant', name: 'kube-root-ca.crt' });
    const recreated = await rootCAOf(
      'tenant',
      (cm) => cm.metadata?.uid !== before.metadata?.uid && cm.data?.['ca.crt'] === ROOT_CA,
    );
    expect(recreated.data).toEqual({ 'ca.crt': ROOT_CA });

    await h.api.update({ ...recreated, data: { 'ca.crt': 'tampered', extra: 'x' } });
    const restored = await rootCAOf(
      'tenant',
      (cm) => cm.metadata?.resourceVersion !== recreated.metadata?.resourceVersion && cm.data?.['ca.crt'] === ROOT_CA,
    );
    expect(restored.data).toEqual({ 'ca.crt': ROOT_CA });
    expect(restored.metadata?.uid).toBe(recreated.metadata?.uid);
  });
});
