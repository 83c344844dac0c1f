// The built-in image map end to end: an etcd Pod runs the Debian etcd binary, and a kube-apiserver Pod runs the
// local API server (the built gardener-local CLI) with its kube-apiserver flags translated, storing in that etcd.
import { existsSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, workspaceRoot } from '@gardener-ts/testing';
import { condition, startHarness, type Harness } from './harness.js';

const cli = join(workspaceRoot(), 'dist/tools/gardener-local/images/kube-apiserver.js');
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ workspace: workspaceRoot() });
}, 60_000);
afterAll(async () => h?.stop());

describe('built-in images', () => {
  let etcdPort: number;

  it('runs registry.k8s.io/etcd as the etcd binary, its data dir in the Pod volume', async () => {
    etcdPort = await freePort();
    const peerPort = await freePort();
    const client = `http://127.0.0.1:${etcdPort}`;
    const peer = `http://127.0.0.1:${peerPort}`;
    await h.createPod('etcd', {
      containers: [
        {
          name: 'etcd',
          image: 'registry.k8s.io/etcd:3.5.15-0',
          command: ['etcd'],
          args: [
            '--name=default',
            '--data-dir=/var/etcd/data',
            `--listen-client-urls=${client}`,
            `--advertise-client-urls=${client}`,
            `--listen-peer-urls=${peer}`,
            `--initial-advertise-peer-urls=${peer}`,
            `--initial-cluster=default=${peer}`,
          ],
          volumeMounts: [{ name: 'data', mountPath: '/var/etcd' }],
          readinessProbe: { httpGet: { port: etcdPort, path: '/health' }, periodSeconds: 1 },
        },
      ],
      volumes: [{ name: 'data', emptyDir: {} }],
    });
    const pod = await h.waitForPod('etcd', 'Ready', (p) => condition(p, 'Ready') === 'True', 30_000);
    expect(existsSync(join(h.dataDir, 'pods', pod.metadata!.uid!, 'volumes/data/data/member'))).toBe(true);
  });

  it.skipIf(!existsSync(cli))(
    'runs registry.k8s.io/kube-apiserver as the local API server on the etcd Pod',
    async () => {
      const port = await freePort();
      await h.createPod('kube-apiserver', {
        containers: [
          {
            name: 'kube-apiserver',
            image: 'registry.k8s.io/kube-apiserver:v1.31.1',
            command: ['/usr/local/bin/kube-apiserver'],
            args: [
              `--secure-port=${port}`,
              `--etcd-servers=http://127.0.0.1:${etcdPort}`,
              '--anonymous-auth=true',
              '--enable-aggregator-routing=true',
              '--allow-privileged=true',
            ],
            readinessProbe: { httpGet: { port, path: '/readyz', scheme: 'HTTPS' }, periodSeconds: 1 },
          },
        ],
      });
      await h.waitForPod('kube-apiserver', 'Ready', (p) => condition(p, 'Ready') === 'True', 45_000);
      const version = await fetchInsecure(`https://127.0.0.1:${port}/version`);
      expect(JSON.parse(version)).toMatchObject({ major: '1' });
    },
    60_000,
  );
});

function fetchInsecure(url: string): Promise<string> {
  return new Promise((done, failed) => {
    request(url, { rejectUnauthorized: false }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => done(body));
    })
      .on('error', failed)
      .end();
  });
}
