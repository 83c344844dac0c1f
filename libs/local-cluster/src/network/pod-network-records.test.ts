// The pod network preload answers the DNS records the service proxy lists from the cluster's record ConfigMaps: A and
// AAAA names, wildcards, CNAMEs followed to other records and to Services, and connections by a name whose CNAME
// leads to a Service go to the Service's local port (a shoot API server's name, as provider-local records it).
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { podNetworkEnv } from './pod-network.js';

describe('pod network preload: DNS records', () => {
  let dir: string;
  let file: string;
  let apiServer: Server;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pod-network-records-'));
    file = join(dir, 'services.json');
    apiServer = createServer((_req, res) => res.end('kube-apiserver of shoot--local--local'));
    await new Promise<void>((resolve) => apiServer.listen(0, '127.0.0.1', resolve));
    const localPort = (apiServer.address() as AddressInfo).port;
    await writeFile(
      file,
      JSON.stringify({
        services: [
          {
            namespace: 'shoot--local--local',
            name: 'kube-apiserver',
            type: 'LoadBalancer',
            clusterIP: '10.4.0.10',
            host: '127.0.0.1',
            ports: [{ name: 'kube-apiserver', protocol: 'TCP', port: 443, localPort, nodePort: localPort }],
          },
        ],
        records: [
          { name: '*.ingress.example.test', type: 'A', values: ['127.0.0.7'] },
          { name: 'alias.example.test', type: 'CNAME', values: ['plain.example.test'] },
          {
            name: 'api.local.local.internal.local.gardener.cloud',
            type: 'CNAME',
            values: ['kube-apiserver.shoot--local--local.svc.cluster.local'],
          },
          { name: 'plain.example.test', type: 'A', values: ['127.0.0.8', '127.0.0.9'] },
          { name: 'plain.example.test', type: 'AAAA', values: ['::1'] },
        ],
      }),
    );
  });
  afterAll(async () => {
    apiServer?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function inPod(source: string): Promise<unknown> {
    const env = podNetworkEnv(
      '127.9.5.1',
      { PATH: process.env.PATH ?? '', GARDENER_LOCAL_SERVICES_FILE: file },
      'demo',
    );
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', source], {
      env,
      timeout: 20_000,
    });
    return JSON.parse(stdout);
  }

  it('answers recorded names with dns.lookup and dns.resolve*, wildcards and CNAME chains included', async () => {
    const out = await inPod(`
      import dns from 'node:dns';
      const all = async (name, family) => (await dns.promises.lookup(name, { all: true, family })).map((a) => a.address).sort();
      console.log(JSON.stringify([
        await all('plain.example.test', 4),
        await all('PLAIN.example.test.', 6),
        await all('alias.example.test', 4),
        await all('a.ingress.example.test', 4),
        await all('x.y.ingress.example.test', 4),
        (await dns.promises.resolve4('plain.example.test')).sort(),
        await dns.promises.resolveCname('alias.example.test'),
        await all('api.local.local.internal.local.gardener.cloud', 4),
        await new Promise((r) => dns.lookup('api.local.local.internal.local.gardener.cloud', (err, a) => r(err ? err.code : a))),
      ]));`);
    expect(out).toEqual([
      ['127.0.0.8', '127.0.0.9'],
      ['::1'],
      ['127.0.0.8', '127.0.0.9'],
      ['127.0.0.7'],
      ['127.0.0.7'],
      ['127.0.0.8', '127.0.0.9'],
      ['plain.example.test'],
      ['10.4.0.10'],
      '10.4.0.10',
    ]);
  });

  it("connects by a shoot API server's recorded name to its Service's local port", async () => {
    const out = await inPod(`
      const res = await fetch('http://api.local.local.internal.local.gardener.cloud:443/');
      console.log(JSON.stringify(await res.text()));`);
    expect(out).toBe('kube-apiserver of shoot--local--local');
  });
});
