// Field selectors with the real kubectl v1.35: each resource accepts kube's field labels for its group (not only core
// ones), a CRD its versions' `selectableFields`, and anything else is refused as kube refuses it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, runKubectl, waitFor } from '@gardener-ts/test-support';
import { startTestCluster, type TestCluster } from '../../src/index.js';
import { widgetCRD } from './widget-crd.js';

let cluster: TestCluster;
const k = (args: string[], input?: string) => kubectl(cluster.kubeconfigPath, args, { input });
const names = async (args: string[]) =>
  (await k(['get', ...args, '-o', 'jsonpath={.items[*].metadata.name}'])).trim().split(/\s+/).filter(Boolean).sort();

const csr = (name: string, signerName: string) => ({
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: { name },
  // Any PEM-wrapped request is accepted at create; the content does not matter to the selector.
  spec: {
    signerName,
    usages: ['client auth'],
    request: Buffer.from('-----BEGIN CERTIFICATE REQUEST-----\nMA==\n-----END CERTIFICATE REQUEST-----\n').toString(
      'base64',
    ),
  },
});

const widgets = widgetCRD({
  selectableFields: [{ jsonPath: '.spec.color' }],
  schema: {
    openAPIV3Schema: {
      type: 'object',
      properties: { spec: { type: 'object', properties: { color: { type: 'string' }, size: { type: 'string' } } } },
    },
  },
});

beforeAll(async () => {
  cluster = await startTestCluster();
});
afterAll(async () => cluster?.stop());

describe('field selectors', () => {
  it('select CertificateSigningRequests by spec.signerName (certificates.k8s.io)', async () => {
    await k(
      ['create', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'List',
        items: [
          csr('client-a', 'kubernetes.io/kube-apiserver-client'),
          csr('serving-a', 'kubernetes.io/kubelet-serving'),
        ],
      }),
    );
    expect(await names(['csr', '--field-selector', 'spec.signerName=kubernetes.io/kubelet-serving'])).toEqual([
      'serving-a',
    ]);
    expect(await names(['csr', '--field-selector', 'spec.signerName!=kubernetes.io/kubelet-serving'])).toEqual([
      'client-a',
    ]);
  });

  it('select ReplicaSets by status.replicas and Jobs by status.successful (apps, batch)', async () => {
    await k(['create', 'namespace', 'fs']);
    const replicaSet = (name: string) => ({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name, namespace: 'fs' },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: name } },
        template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'x' }] } },
      },
    });
    await k(['create', '-f', '-'], JSON.stringify(replicaSet('rs-a')));
    await k(['create', '-f', '-'], JSON.stringify(replicaSet('rs-b')));
    await k([
      'patch',
      'rs',
      'rs-b',
      '-n',
      'fs',
      '--subresource=status',
      '--type=merge',
      '-p',
      '{"status":{"replicas":2}}',
    ]);
    expect(await names(['rs', '-n', 'fs', '--field-selector', 'status.replicas=2'])).toEqual(['rs-b']);
    expect(await names(['jobs', '-n', 'fs', '--field-selector', 'status.successful=1'])).toEqual([]);
  });

  it('select custom resources by their selectableFields, and refuse other fields as kube does', async () => {
    await k(['create', '-f', '-'], JSON.stringify(widgets));
    await waitFor(
      'the Widget API',
      async () => (await runKubectl(cluster.kubeconfigPath, ['get', 'widgets', '-A'])).code === 0,
      { timeoutMs: 20_000 },
    );
    for (const [name, color] of [
      ['red-one', 'red'],
      ['blue-one', 'blue'],
    ]) {
      await k(
        ['create', '-f', '-'],
        JSON.stringify({
          apiVersion: 'example.com/v1',
          kind: 'Widget',
          metadata: { name, namespace: 'default' },
          spec: { color, size: 'L' },
        }),
      );
    }
    expect(await names(['widgets', '--field-selector', 'spec.color=blue'])).toEqual(['blue-one']);
    const refused = await runKubectl(cluster.kubeconfigPath, ['get', 'widgets', '--field-selector', 'spec.size=L']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('field label not supported: spec.size');
    // A field label of another resource with the same name is not borrowed.
    const borrowed = await runKubectl(cluster.kubeconfigPath, [
      'get',
      'rs',
      '-A',
      '--field-selector',
      'spec.nodeName=x',
    ]);
    expect(borrowed.stderr).toContain('field label not supported: spec.nodeName');
  });
});
