// A whole local cluster's default storage: `cluster up` installs kind's StorageClass `standard`, a claim of it is
// provisioned under the cluster's data dir when its first Pod is scheduled, and what a Pod wrote there is read by a
// Pod of the next run of the cluster.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@gardener-ts/logging';
import { kubectl, waitFor } from '@gardener-ts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultComponents } from '../../src/cluster/components.js';
import { clusterLayout } from '../../src/cluster/layout.js';
import { runCluster, type RunningCluster } from '../../src/cluster/supervisor.js';

let dir: string;
let imageMap: string;
let cluster: RunningCluster | undefined;
const layout = () => clusterLayout(dir, 'storage');
const logger = createLogger({ name: 'pv-cluster-test', level: process.env.CLUSTER_TEST_LOG ? 'debug' : 'silent' });
const start = async () => {
  cluster = await runCluster(layout(), defaultComponents({ imageMapFile: imageMap }), logger);
};
const run = (args: string[], input?: object) =>
  kubectl(layout().kubeconfig, args, input ? { input: JSON.stringify(input) } : {});
const jsonOf = async <T>(args: string[]) => JSON.parse(await run([...args, '-o', 'json'])) as T;

/** A Pod running `code` with Node.js, the claim `notes` mounted at /data. */
const pod = (name: string, code: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default' },
  spec: {
    restartPolicy: 'Never',
    containers: [
      { name: 'main', image: 'node', args: ['-e', code], volumeMounts: [{ name: 'notes', mountPath: '/data' }] },
    ],
    volumes: [{ name: 'notes', persistentVolumeClaim: { claimName: 'notes' } }],
  },
});
const succeeded = (name: string) =>
  waitFor(
    `pod ${name} to succeed`,
    async () => {
      const phase = (await jsonOf<{ status?: { phase?: string } }>(['get', 'pod', name])).status?.phase;
      if (phase === 'Failed') throw new Error(`pod ${name} failed: ${await run(['logs', name])}`);
      return phase === 'Succeeded' || undefined;
    },
    { timeoutMs: 60_000, intervalMs: 250 },
  );

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pv-cluster-'));
  imageMap = join(dir, 'images.yaml');
  await writeFile(imageMap, JSON.stringify({ images: [{ image: 'node', command: [process.execPath] }] }));
  await start();
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

describe('the default storage of a local cluster', () => {
  it('keeps a claim and its data across a restart of the cluster', async () => {
    const classes = await jsonOf<{ items: { metadata: { name: string; annotations?: Record<string, string> } }[] }>([
      'get',
      'storageclass',
    ]);
    expect(classes.items.map((c) => c.metadata.name)).toEqual(['standard']);
    expect(classes.items[0]!.metadata.annotations?.['storageclass.kubernetes.io/is-default-class']).toBe('true');

    await run(['apply', '-f', '-'], {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'notes', namespace: 'default' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '100Mi' } } },
    });
    await run(['apply', '-f', '-'], pod('writer', `require('node:fs').writeFileSync('/data/note.txt', 'remember me')`));
    await succeeded('writer');
    const claim = await jsonOf<{ spec: { volumeName: string }; status: { phase: string } }>(['get', 'pvc', 'notes']);
    expect(claim.status.phase).toBe('Bound');
    const pv = await jsonOf<{ spec: { hostPath: { path: string } } }>(['get', 'pv', claim.spec.volumeName]);
    expect(pv.spec.hostPath.path.startsWith(join(layout().root, 'volumes'))).toBe(true);
    expect(existsSync(join(pv.spec.hostPath.path, 'note.txt'))).toBe(true);

    await cluster!.stop();
    cluster = undefined;
    await start();

    expect((await jsonOf<{ items: unknown[] }>(['get', 'storageclass'])).items).toHaveLength(1);
    await run(
      ['apply', '-f', '-'],
      pod('reader', `process.stdout.write(require('node:fs').readFileSync('/data/note.txt', 'utf8'))`),
    );
    await succeeded('reader');
    expect((await run(['logs', 'reader'])).trim()).toBe('remember me');
    expect((await jsonOf<{ spec: { volumeName: string } }>(['get', 'pvc', 'notes'])).spec.volumeName).toBe(
      claim.spec.volumeName,
    );
  }, 180_000);
});
