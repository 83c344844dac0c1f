import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from './client.js';
import { loadKubeConfig, TokenFileRefreshMs } from './kubeconfig.js';

// A stand-in API server that records the headers it gets and answers discovery.
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

/** A generic token kubeconfig as Gardener writes it (the user reads `tokenFile`), pointing at the stand-in server. */
function kubeconfig(tokenFile: string, extraUser = ''): string {
  return `apiVersion: v1
kind: Config
clusters:
- cluster:
    server: ${url}
    insecure-skip-tls-verify: true
  name: shoot
contexts:
- context:
    cluster: shoot
    user: shoot-access
  name: shoot
current-context: shoot
users:
- name: shoot-access
  user:
    tokenFile: ${tokenFile}
${extraUser}`;
}

/** The Authorization header the server sees for one request through `client`. */
async function authorizationOf(client: ApiClient): Promise<string | undefined> {
  await client.transport.request({ method: 'GET', path: '/api/v1' });
  return seen.at(-1)?.authorization;
}

describe('loadKubeConfig', () => {
  const savedKubeconfig = process.env.KUBECONFIG;
  afterEach(() => {
    if (savedKubeconfig === undefined) delete process.env.KUBECONFIG;
    else process.env.KUBECONFIG = savedKubeconfig;
  });

  it('authenticates with the token of a tokenFile user, and reads a renewed token within a minute', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubeconfig-'));
    writeFileSync(join(dir, 'token'), 'first-token\n');
    writeFileSync(join(dir, 'kubeconfig'), kubeconfig(join(dir, 'token')));
    let now = 1_000_000;
    const client = await ApiClient.create(loadKubeConfig(join(dir, 'kubeconfig'), { now: () => now }));
    try {
      expect(await authorizationOf(client)).toBe('Bearer first-token');
      // A token requestor renews the token in place: the cached one is used until the minute is over.
      writeFileSync(join(dir, 'token'), 'renewed-token\n');
      now += TokenFileRefreshMs - 1;
      expect(await authorizationOf(client)).toBe('Bearer first-token');
      now += 2;
      expect(await authorizationOf(client)).toBe('Bearer renewed-token');
    } finally {
      client.close();
    }
  });

  it('resolves a relative tokenFile against the kubeconfig directory, as the projected generic kubeconfig has it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubeconfig-'));
    writeFileSync(join(dir, 'token'), 'relative-token');
    writeFileSync(join(dir, 'kubeconfig'), kubeconfig('token'));
    const client = await ApiClient.create(join(dir, 'kubeconfig'));
    try {
      expect(await authorizationOf(client)).toBe('Bearer relative-token');
    } finally {
      client.close();
    }
  });

  it('honours tokenFile in the kubeconfig $KUBECONFIG names when no path is given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubeconfig-'));
    writeFileSync(join(dir, 'token'), 'env-token');
    writeFileSync(join(dir, 'kubeconfig'), kubeconfig(join(dir, 'token')));
    process.env.KUBECONFIG = join(dir, 'kubeconfig');
    const client = await ApiClient.create(loadKubeConfig(''));
    try {
      expect(await authorizationOf(client)).toBe('Bearer env-token');
    } finally {
      client.close();
    }
  });

  it('prefers an inline token over a tokenFile, and names the file it cannot read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubeconfig-'));
    const inline = kubeconfig(join(dir, 'missing')).replace(
      `tokenFile: ${join(dir, 'missing')}`,
      `token: inline-token\n    tokenFile: ${join(dir, 'missing')}`,
    );
    writeFileSync(join(dir, 'inline'), inline);
    const withInline = await ApiClient.create(join(dir, 'inline'));
    try {
      expect(await authorizationOf(withInline)).toBe('Bearer inline-token');
    } finally {
      withInline.close();
    }
    writeFileSync(join(dir, 'missing-token'), kubeconfig(join(dir, 'missing')));
    const connect = async () => {
      const missing = await ApiClient.create(join(dir, 'missing-token'));
      try {
        await missing.transport.request({ method: 'GET', path: '/api/v1' });
      } finally {
        missing.close();
      }
    };
    await expect(connect()).rejects.toThrow(
      `reading the token file ${join(dir, 'missing')} of kubeconfig user shoot-access`,
    );
  });
});
