// `gardener-local cluster up --nodes 3 --zones a,b,c`: a cluster of three kubelets in one supervisor, driven with the
// real kubectl. A Deployment spread over the zones lands one Pod per node, its Service reaches every node's Pod, a
// crashed supervisor's Pods of every node are cleaned up on the next `up`, the spread constraint keeps a Pod Pending
// rather than skew the zones, and `down` leaves no process.
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, clusterCommand, get, pidsOf, run, serviceUrlIn } from './support.js';
import { kubectl, waitFor } from '@gardener-ts/testing';

let dir: string;
let program: string;
let clusters: string;

const gardenerLocal = (...args: string[]) => clusterCommand(clusters, ...args);
const programPids = () => pidsOf(program);
const serviceUrl = (service: string) => serviceUrlIn(clusters, 'ha', service);

// Gardener's high-availability webhook spreads control planes like this: at most one replica more per zone.
const spreadDeployment = `
apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  replicas: 3
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      terminationGracePeriodSeconds: 5
      topologySpreadConstraints:
        - { maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: { matchLabels: { app: web } } }
      containers:
        - name: web
          image: example.com/hello:v1
          ports: [{ containerPort: 8080 }]
          readinessProbe: { httpGet: { port: 8080, path: / }, periodSeconds: 1 }
---
apiVersion: v1
kind: Service
metadata: { name: web }
spec:
  selector: { app: web }
  ports: [{ port: 80, targetPort: 8080 }]
`;

interface PodJson {
  metadata: { name: string };
  spec: { nodeName?: string };
  status: { podIP: string };
}

const kc = () => join(clusters, 'ha', 'kubeconfig');
const webPods = async () =>
  (JSON.parse(await kubectl(kc(), ['get', 'pods', '-l', 'app=web', '-o', 'json'])).items as PodJson[]).sort((a, b) =>
    (a.spec.nodeName ?? '~').localeCompare(b.spec.nodeName ?? '~'),
  );

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gardener-local-nodes-'));
  clusters = join(dir, 'clusters');
  program = join(dir, 'hello.mjs');
  await copyFile(join(import.meta.dirname, 'fixtures', 'hello.mjs'), program);
  await writeFile(
    join(dir, 'images.json'),
    JSON.stringify({
      images: [{ image: 'example.com/hello:v1', command: [process.execPath, program], env: { VERSION: 'v1' } }],
    }),
  );
});

afterAll(async () => {
  await gardenerLocal('down', 'ha').catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

describe('gardener-local cluster with several nodes', () => {
  it('runs 3 zoned nodes, spreads a Deployment over them, serves from every node, recovers from a crash, keeps the spread and stops everything', async () => {
    expect(
      await gardenerLocal('up', 'ha', '--nodes', '3', '--zones', 'a,b,c', '--image-map', join(dir, 'images.json')),
    ).toContain('is ready');

    // Three Ready nodes, the first one named as a one-node cluster's, each with its zone, hostname and pod CIDR slice.
    const nodes = await waitFor('3 Ready nodes', async () => {
      const items = JSON.parse(await kubectl(kc(), ['get', 'nodes', '-o', 'json'])).items as {
        metadata: { name: string; labels: Record<string, string> };
        spec: { podCIDR: string };
        status: { conditions: { type: string; status: string }[] };
      }[];
      const ready = items.filter((n) => n.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
      return ready.length === 3 ? ready : undefined;
    });
    expect(
      nodes.map((n) => [
        n.metadata.name,
        n.metadata.labels['topology.kubernetes.io/zone'],
        n.metadata.labels['kubernetes.io/hostname'],
      ]),
    ).toEqual([
      ['ha-node', 'a', 'ha-node'],
      ['ha-node-2', 'b', 'ha-node-2'],
      ['ha-node-3', 'c', 'ha-node-3'],
    ]);
    const cidrs = nodes.map((n) => n.spec.podCIDR);
    expect(cidrs).toEqual(
      [0, 16, 32].map((third) => expect.stringMatching(new RegExp(`^127\\.\\d+\\.${third}\\.0/20$`))),
    );
    expect(new Set(cidrs.map((c) => c.split('.')[1])).size).toBe(1);
    expect(await kubectl(kc(), ['get', 'nodes', '-L', 'topology.kubernetes.io/zone'])).toMatch(
      /^ha-node-3\s+Ready\s.*\sc\n?$/m,
    );

    // The node count is fixed at the first up.
    const refused = await run(process.execPath, [
      cli,
      'cluster',
      'up',
      'ha',
      '--nodes',
      '2',
      '--data-dir',
      clusters,
    ]).catch((err: { code: number; stderr: string }) => err);
    expect(refused).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('has 3 node(s); it cannot be changed to 2'),
    });
    expect(await gardenerLocal('up', 'ha')).toContain('is already running');
    expect(JSON.parse(await readFile(join(clusters, 'ha', 'cluster.json'), 'utf8'))).toMatchObject({
      nodeName: 'ha-node',
      nodes: 3,
      zones: ['a', 'b', 'c'],
    });

    // The zone spread constraint puts one replica on each node; each Pod's address is in its node's slice.
    await kubectl(kc(), ['apply', '-f', '-'], { input: spreadDeployment });
    await kubectl(kc(), ['rollout', 'status', 'deployment/web', '--timeout=60s']);
    const pods = await webPods();
    expect(pods.map((p) => p.spec.nodeName)).toEqual(['ha-node', 'ha-node-2', 'ha-node-3']);
    pods.forEach((p, i) => expect(p.status.podIP.split('.')[2]).toMatch(new RegExp(`^${[0, 16, 32][i]}$`)));
    expect(await programPids()).toHaveLength(3);

    // The Service reaches the Pods of every node.
    const url = await waitFor('service port', () => serviceUrl('web').catch(() => undefined));
    const answering = new Set<string>();
    await waitFor('every node answering', async () => {
      const body = await get(url).catch(() => undefined);
      if (body) answering.add(body.trim().split(' ')[1]);
      return answering.size === 3 ? true : undefined;
    });
    expect([...answering].sort()).toEqual(pods.map((p) => p.metadata.name).sort());

    // A crashed supervisor leaves the Pods of all three nodes running; the next up kills them and runs them again.
    const before = await programPids();
    process.kill(Number((await readFile(join(clusters, 'ha', 'supervisor.pid'), 'utf8')).trim()), 'SIGKILL');
    expect(await gardenerLocal('up', 'ha', '--image-map', join(dir, 'images.json'))).toContain('is ready');
    await kubectl(kc(), ['rollout', 'status', 'deployment/web', '--timeout=60s']);
    const after = await waitFor('3 new pod processes', async () => {
      const pids = await programPids();
      return pids.length === 3 && pids.every((pid) => !before.includes(pid)) ? pids : undefined;
    });
    expect(after).toHaveLength(3);
    expect((await webPods()).map((p) => p.spec.nodeName)).toEqual(['ha-node', 'ha-node-2', 'ha-node-3']);
    expect(
      await waitFor('service answers again', () => get(url).catch(() => undefined), { timeoutMs: 30_000 }),
    ).toMatch(/^v1 web-/);

    // The constraint is enforced, not just a side effect of least-requested scoring: with zone c cordoned, six
    // replicas fit only as 2/2/1 and the sixth stays Pending.
    await kubectl(kc(), ['cordon', 'ha-node-3']);
    await kubectl(kc(), ['scale', 'deployment/web', '--replicas=6']);
    const message = await waitFor('a pod unschedulable', async () => {
      const items = JSON.parse(await kubectl(kc(), ['get', 'pods', '-l', 'app=web', '-o', 'json'])).items as {
        status: { conditions?: { type: string; status: string; message?: string }[] };
      }[];
      const unschedulable = items.flatMap(
        (p) => p.status.conditions?.filter((c) => c.type === 'PodScheduled' && c.status === 'False') ?? [],
      );
      return unschedulable.length === 1 ? unschedulable[0].message : undefined;
    });
    expect(message).toContain("2 node(s) didn't match pod topology spread constraints");
    const placedOn = await waitFor('five pods placed', async () => {
      const nodes = (await webPods()).map((p) => p.spec.nodeName).filter(Boolean);
      return nodes.length === 5 ? nodes : undefined;
    });
    expect(placedOn.sort()).toEqual(['ha-node', 'ha-node', 'ha-node-2', 'ha-node-2', 'ha-node-3']);

    expect(await gardenerLocal('down', 'ha')).toContain('stopped');
    expect(await programPids()).toEqual([]);
    const { stdout } = await run('ps', ['-eo', 'args=']);
    expect(stdout).not.toContain(clusters);
  });
});
