// `gardener-local controller-manager` and `gardener-local scheduler` against a remote API server, as a shoot's
// kube-controller-manager and kube-scheduler Pods run them in local mode, with Gardener's shoot access (a ServiceAccount
// token file named by the kubeconfig, the RBAC Gardener binds): the controller manager (HTTPS /healthz with the given
// serving certificate, leader election on kube's Lease, each controller as its own ServiceAccount) turns a Deployment
// applied with kubectl into its ReplicaSet and Pods; the scheduler, configured by a KubeSchedulerConfiguration, binds
// them and a lone Pod of its bin-packing profile to the Node registered there. SIGTERM stops both cleanly and releases the Lease, so a standby replica takes
// over at once. Runs the CLI from its sources, as the other tests of this folder do.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { get as httpsGet } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import {
  kubectl,
  startProcess,
  startTestCluster,
  stopAllProcesses,
  waitFor,
  workspaceRoot,
  type RunningProcess,
  type TestCluster,
} from '@gardener-ts/testing';

const source = join(workspaceRoot(), 'tools', 'gardener-local', 'src', 'cli.ts');
let cluster: TestCluster;
let dir: string;
let admin: string;
let controllerManager: RunningProcess;

/** `gardener-local <args>` from the TypeScript sources. */
function gardenerLocal(...args: string[]): RunningProcess {
  return startProcess(process.execPath, ['--conditions=@gardener-ts/source', '--import', 'tsx', source, ...args], {
    cwd: workspaceRoot(),
  });
}

/** The health URL a component prints once it serves. */
function servingUrl(proc: RunningProcess, what: string): Promise<string> {
  return waitFor(
    `${what} to serve /healthz`,
    () => {
      if (proc.child.exitCode !== null) throw new Error(`${what} exited: ${proc.output()}`);
      return /serving \/healthz on (https?:\/\/\S+)/.exec(proc.output())?.[1];
    },
    { timeoutMs: 60_000 },
  );
}

/** GET over HTTPS, trusting only `ca`. */
function getHttps(url: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsGet(url, { ca, agent: false, timeout: 5_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on('error', reject);
  });
}

const json = async (...args: string[]) => JSON.parse(await kubectl(admin, [...args, '-o', 'json']));

/**
 * Gardener's shoot access for a control plane component: ServiceAccount kube-system/<name> bound to `clusterRole`,
 * its token in a file, and a kubeconfig whose user names that file with tokenFile (the generic token kubeconfig).
 */
async function shootAccess(name: string, clusterRole: string): Promise<string> {
  await kubectl(admin, ['create', 'serviceaccount', name, '-n', 'kube-system']);
  // Gardener binds kube-scheduler's ServiceAccount to system:volume-scheduler too (`gardener.cloud:target:<name>-volume`).
  for (const [suffix, role] of [
    ['', clusterRole],
    ...(name === 'kube-scheduler' ? [['-volume', 'system:volume-scheduler']] : []),
  ]) {
    await kubectl(admin, [
      ...['create', 'clusterrolebinding', `gardener.cloud:target:${name}${suffix}`],
      ...['--clusterrole', role!, '--serviceaccount', `kube-system:${name}`],
    ]);
  }
  const token = await kubectl(admin, ['create', 'token', name, '-n', 'kube-system']);
  await writeFile(join(dir, `${name}.token`), token.trim());
  const adminConfig = parse(await readFile(admin, 'utf8'));
  const kubeconfig = join(dir, `${name}.kubeconfig`);
  await writeFile(
    kubeconfig,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'shoot', cluster: adminConfig.clusters[0].cluster }],
      users: [{ name: 'shoot-access', user: { tokenFile: join(dir, `${name}.token`) } }],
      contexts: [{ name: 'shoot', context: { cluster: 'shoot', user: 'shoot-access' } }],
      'current-context': 'shoot',
    }),
  );
  return kubeconfig;
}

beforeAll(async () => {
  cluster = await startTestCluster();
  admin = cluster.kubeconfigPath;
  dir = await mkdtemp(join(tmpdir(), 'gardener-local-components-'));
  // The serving certificate Gardener's secrets manager would give kube-controller-manager.
  await promisify(execFile)('openssl', [
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'],
    ...['-subj', '/CN=kube-controller-manager', '-addext', 'subjectAltName=IP:127.0.0.1'],
    ...['-keyout', join(dir, 'tls.key'), '-out', join(dir, 'tls.crt')],
  ]);
}, 60_000);

afterAll(async () => {
  await stopAllProcesses();
  await cluster?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('gardener-local controller-manager and scheduler', () => {
  it('runs the workload controllers, each as its own ServiceAccount, serving HTTPS /healthz', async () => {
    // As Gardener runs a shoot's kube-controller-manager: its own identity may only list, watch and request tokens
    // (system:kube-controller-manager); each controller writes as kube-system/<controller> (system:controller:*).
    const kubeconfig = await shootAccess('kube-controller-manager', 'system:kube-controller-manager');
    controllerManager = gardenerLocal(
      ...['controller-manager', '--kubeconfig', kubeconfig, '--use-service-account-credentials'],
      ...['--secure-port', '0', '--bind-address', '127.0.0.1'],
      ...['--tls-cert-file', join(dir, 'tls.crt'), '--tls-private-key-file', join(dir, 'tls.key')],
    );
    const url = await servingUrl(controllerManager, 'the controller manager');
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const ca = await readFile(join(dir, 'tls.crt'), 'utf8');
    expect(await getHttps(`${url}/healthz`, ca)).toEqual({ status: 200, body: 'ok' });
    await waitFor('the controllers to be ready', async () => (await getHttps(`${url}/readyz`, ca)).status === 200, {
      timeoutMs: 30_000,
    });
    // Leader election as kube's: the Lease kube-system/kube-controller-manager names this process.
    const lease = await json('get', 'lease', '-n', 'kube-system', 'kube-controller-manager');
    expect(lease.spec.holderIdentity).toBeTruthy();

    await kubectl(admin, ['apply', '-f', '-'], {
      input: `
apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: default }
spec:
  replicas: 2
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers: [{ name: web, image: example.com/hello:v1 }]
`,
    });
    const replicaSet = await waitFor(
      'the Deployment to get its ReplicaSet',
      async () => (await json('get', 'replicasets', '-l', 'app=web')).items[0],
      { timeoutMs: 30_000 },
    );
    expect(replicaSet.metadata.ownerReferences[0]).toMatchObject({ kind: 'Deployment', name: 'web', controller: true });
    const pods = await waitFor(
      'the ReplicaSet to create two Pods',
      async () => {
        const items = (await json('get', 'pods', '-l', 'app=web')).items;
        return items.length === 2 ? items : undefined;
      },
      { timeoutMs: 30_000 },
    );
    for (const pod of pods)
      expect(pod.metadata.ownerReferences[0]).toMatchObject({ kind: 'ReplicaSet', name: replicaSet.metadata.name });

    // The other workload controllers, each under its own ServiceAccount's RBAC.
    await kubectl(admin, ['apply', '-f', '-'], {
      input: `
apiVersion: v1
kind: Service
metadata: { name: web, namespace: default }
spec:
  selector: { app: web }
  ports: [{ port: 80, targetPort: 8080 }]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: { name: web, namespace: default }
spec:
  minAvailable: 1
  selector: { matchLabels: { app: web } }
---
apiVersion: apps/v1
kind: StatefulSet
metadata: { name: db, namespace: default }
spec:
  serviceName: db
  replicas: 1
  selector: { matchLabels: { app: db } }
  template:
    metadata: { labels: { app: db } }
    spec:
      containers: [{ name: db, image: example.com/hello:v1 }]
---
apiVersion: batch/v1
kind: Job
metadata: { name: once, namespace: default }
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{ name: once, image: example.com/hello:v1 }]
`,
    });
    await waitFor(
      'Endpoints, EndpointSlice, PDB status, StatefulSet and Job Pods',
      async () => {
        const endpoints = await json('get', 'endpoints', 'web').catch(() => undefined);
        const slices = (await json('get', 'endpointslices', '-l', 'kubernetes.io/service-name=web')).items;
        const pdb = await json('get', 'pdb', 'web');
        const names = (await json('get', 'pods')).items.map((p: { metadata: { name: string } }) => p.metadata.name);
        return (
          endpoints &&
          slices.length === 1 &&
          pdb.status?.expectedPods === 2 &&
          names.includes('db-0') &&
          names.some((n: string) => n.startsWith('once-'))
        );
      },
      { timeoutMs: 30_000 },
    );
    expect(controllerManager.output()).not.toMatch(/forbidden/i);
    await kubectl(admin, ['delete', 'statefulset', 'db', '--wait=false']);
    await kubectl(admin, ['delete', 'job', 'once', '--cascade=background', '--wait=false']);
  }, 120_000);

  it('schedules pending Pods onto a registered Node, authenticated by a ServiceAccount token file', async () => {
    // Gardener's shoot access: ServiceAccount kube-system/kube-scheduler bound to system:kube-scheduler.
    const kubeconfig = await shootAccess('kube-scheduler', 'system:kube-scheduler');
    await writeFile(
      join(dir, 'scheduler.yaml'),
      stringify({
        apiVersion: 'kubescheduler.config.k8s.io/v1',
        kind: 'KubeSchedulerConfiguration',
        clientConnection: { kubeconfig },
        leaderElection: { leaderElect: true },
        // The default profile and Gardener's bin-packing one (spec.kubernetes.kubeScheduler.profile: bin-packing).
        profiles: [{ schedulerName: 'default-scheduler' }, { schedulerName: 'bin-packing-scheduler' }],
      }),
    );
    const scheduler = gardenerLocal(
      ...['scheduler', '--config', join(dir, 'scheduler.yaml'), '--secure-port', '0', '--bind-address', '127.0.0.1'],
    );
    const url = await servingUrl(scheduler, 'the scheduler');
    expect(await (await fetch(`${url}/healthz`)).text()).toBe('ok');

    const run = (name: string, schedulerName: string) =>
      kubectl(admin, [
        ...['run', name, '--image', 'example.com/hello:v1', '--restart', 'Never'],
        ...['--overrides', JSON.stringify({ spec: { schedulerName } })],
      ]);
    await run('lonely', 'bin-packing-scheduler');
    await run('elsewhere', 'other-scheduler');
    // A Node as a kubelet registers it: the object, then its status (capacity, Ready).
    await kubectl(admin, ['create', '-f', '-'], {
      input: 'apiVersion: v1\nkind: Node\nmetadata: { name: node-a, labels: { kubernetes.io/hostname: node-a } }\n',
    });
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const resources = { cpu: '4', memory: '8Gi', pods: '110' };
    await kubectl(admin, [
      ...['patch', 'node', 'node-a', '--subresource', 'status', '--type', 'merge', '-p'],
      JSON.stringify({
        status: {
          capacity: resources,
          allocatable: resources,
          conditions: [
            { type: 'Ready', status: 'True', reason: 'KubeletReady', lastHeartbeatTime: now, lastTransitionTime: now },
          ],
        },
      }),
    ]);
    const bound = await waitFor(
      'the pending Pods to be bound to node-a',
      async () => {
        type Pod = { metadata: { name: string; labels?: Record<string, string> }; spec: { nodeName?: string } };
        const items: Pod[] = (await json('get', 'pods')).items;
        const waiting = items.filter((p) => p.metadata.name === 'lonely' || p.metadata.labels?.app === 'web');
        return waiting.length === 3 && waiting.every((p) => p.spec.nodeName === 'node-a') ? waiting : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(bound.map((p) => p.metadata.name)).toContain('lonely');
    // A Pod of a scheduler no profile names is left to that scheduler.
    expect((await json('get', 'pod', 'elsewhere')).spec.nodeName).toBeUndefined();
    const lease = await json('get', 'lease', '-n', 'kube-system', 'kube-scheduler');
    expect(lease.spec.holderIdentity).toBeTruthy();

    expect(await scheduler.stop(), scheduler.output()).toBe(0);
    expect(await controllerManager.stop(), controllerManager.output()).toBe(0);
    // Both released their Leases on the way out: a successor takes over at once.
    for (const name of ['kube-controller-manager', 'kube-scheduler'])
      expect((await json('get', 'lease', '-n', 'kube-system', name)).spec.holderIdentity ?? '', name).toBe('');
  }, 120_000);

  it('keeps a second controller manager on standby until the leader stops, then it takes over', async () => {
    const start = () =>
      gardenerLocal('controller-manager', '--kubeconfig', admin, '--secure-port', '0', '--bind-address', '127.0.0.1');
    const [first, second] = [start(), start()];
    const urls = await Promise.all([servingUrl(first, 'the first'), servingUrl(second, 'the second')]);
    const readiness = () => Promise.all(urls.map(async (url) => (await fetch(`${url}/readyz`)).status));
    // One leads (ready), the other waits for the Lease (healthy, not ready).
    const states = await waitFor(
      'one controller manager to lead',
      async () => {
        const s = await readiness();
        return s.includes(200) ? s : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect([...states].sort()).toEqual([200, 500]);
    for (const url of urls) expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const [leader, standby, standbyUrl] = states[0] === 200 ? [first, second, urls[1]] : [second, first, urls[0]];

    expect(await leader.stop(), leader.output()).toBe(0);
    await waitFor('the standby to take over', async () => (await fetch(`${standbyUrl}/readyz`)).status === 200, {
      timeoutMs: 30_000,
    });
    await kubectl(admin, ['scale', 'deployment', 'web', '--replicas', '3']);
    await waitFor(
      'the new leader to create the third Pod',
      async () => (await json('get', 'pods', '-l', 'app=web')).items.length === 3,
      { timeoutMs: 30_000 },
    );
    expect(await standby.stop(), standby.output()).toBe(0);
  }, 120_000);
});

// As a shoot's kube-controller-manager Pod runs it (Gardener passes the shoot's CA bundle): every namespace's
// `kube-root-ca.crt` holds that file's content instead of the API server's own CA; a file it cannot read is a usage
// error naming the path.
describe('gardener-local controller-manager --root-ca-file', () => {
  const BUNDLE = '-----BEGIN CERTIFICATE-----\nMIIBshootCAbundleFromTheFile\n-----END CERTIFICATE-----\n';
  const rootCAPublisher = (...args: string[]) =>
    gardenerLocal(
      ...['controller-manager', '--kubeconfig', admin, '--secure-port', '0', '--bind-address', '127.0.0.1'],
      ...['--no-leader-elect', ...args],
    );

  it("publishes the file's CA bundle as every namespace's kube-root-ca.crt", async () => {
    await writeFile(join(dir, 'bundle.crt'), BUNDLE);
    const proc = rootCAPublisher('--controllers', 'root-ca-cert-publisher', '--root-ca-file', join(dir, 'bundle.crt'));
    await kubectl(admin, ['create', 'namespace', 'tenant']);
    for (const namespace of ['default', 'tenant'])
      await waitFor(
        `kube-root-ca.crt of ${namespace} to hold the bundle`,
        async () => {
          if (proc.child.exitCode !== null) throw new Error(`the controller manager exited: ${proc.output()}`);
          const out = await kubectl(admin, [
            ...['get', 'configmap', 'kube-root-ca.crt', '-n', namespace],
            ...['-o', 'jsonpath={.data.ca\\.crt}'],
          ]).catch(() => '');
          return out === BUNDLE;
        },
        { timeoutMs: 45_000 },
      );
    await proc.stop();
  }, 90_000);

  it('refuses a file it cannot read, naming it', async () => {
    const missing = join(dir, 'missing.crt');
    const proc = rootCAPublisher('--root-ca-file', missing);
    expect(await proc.exited).toBe(2);
    expect(proc.output()).toContain(`--root-ca-file ${missing}`);
  }, 90_000);
});
