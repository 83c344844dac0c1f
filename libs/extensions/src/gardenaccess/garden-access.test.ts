import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gardenAccessSecret, gardenClient, gardenKubeconfigPath, seedName } from './garden-access.js';

// A stand-in garden API server that records the headers it gets and answers discovery.
const seen: IncomingHttpHeaders[] = [];
const server = createServer((req, res) => {
  seen.push(req.headers);
  res.setHeader('content-type', 'application/json');
  res.end(
    JSON.stringify({
      kind: 'APIResourceList',
      groupVersion: 'v1',
      resources: [{ name: 'namespaces', kind: 'Namespace', namespaced: false, verbs: ['get'] }],
    }),
  );
});
let url = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('garden access', () => {
  it("authenticates with the token file of gardenlet's generic garden kubeconfig", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'garden-access-'));
    writeFileSync(join(dir, 'token'), 'token-from-gardenlet\n');
    // The generic garden kubeconfig as gardenlet writes it (Gardener's docs), pointing at the stand-in server.
    writeFileSync(
      join(dir, 'kubeconfig'),
      `apiVersion: v1
kind: Config
clusters:
- cluster:
    server: ${url}
    insecure-skip-tls-verify: true
  name: garden
contexts:
- context:
    cluster: garden
    user: extension
  name: garden
current-context: garden
users:
- name: extension
  user:
    tokenFile: ${join(dir, 'token')}
`,
    );
    const client = await gardenClient(gardenKubeconfigPath({ GARDEN_KUBECONFIG: join(dir, 'kubeconfig') }));
    try {
      await client.mapping({ group: '', version: 'v1', kind: 'Namespace' });
    } finally {
      client.close();
    }
    expect(seen.at(-1)?.authorization).toBe('Bearer token-from-gardenlet');
  });

  it('reads the seed name and refuses to run without a garden kubeconfig', () => {
    expect(seedName({ SEED_NAME: 'local' })).toBe('local');
    expect(() => gardenClient(gardenKubeconfigPath({}))).toThrow('GARDEN_KUBECONFIG is not set');
  });

  it('builds a garden access secret the TokenRequestor of class garden serves', () => {
    expect(
      gardenAccessSecret({
        name: 'my-component',
        namespace: 'extension-foo',
        serviceAccountName: 'my-component-foo',
        serviceAccountLabels: { foo: 'bar' },
      }),
    ).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'Opaque',
      metadata: {
        name: 'my-component',
        namespace: 'extension-foo',
        labels: { 'resources.gardener.cloud/purpose': 'token-requestor', 'resources.gardener.cloud/class': 'garden' },
        annotations: {
          'serviceaccount.resources.gardener.cloud/name': 'my-component-foo',
          'serviceaccount.resources.gardener.cloud/labels': '{"foo":"bar"}',
        },
      },
    });
  });
});
