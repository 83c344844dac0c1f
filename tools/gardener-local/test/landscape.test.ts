// `gardener-local up` (what `npm start` runs): the whole local Gardener landscape from a fresh data dir, driven as a
// newcomer does — the step checklist, then the real kubectl against it with Gardener's own example manifests. One
// landscape for the whole file (it is the expensive part); a second `up` resumes it with its data.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, pidsOf, run } from './support.js';
import { freePort, kubectl, startProcess, waitFor, workspaceRoot, type RunningProcess } from '@gardener-ts/testing';

const GARDEN_COMPONENTS = ['admission', 'controller-manager', 'scheduler'];
let dir: string;
let root: string;
let port: number;
let up: RunningProcess;
const kc = () => join(root, 'kubeconfig');
/** The seed that hosts the shoot's control plane: the landscape's own (seed local) until the shoot migrates. */
let seedRoot = () => root;
const seedKc = () => join(seedRoot(), 'kubeconfig');
/** The second seed's cluster (`gardener-local seed up local2`), beside the landscape in `dir`. */
const local2Root = () => join(dir, 'local2');

async function startLandscape(): Promise<RunningProcess> {
  const proc = startProcess(process.execPath, [cli, 'up', '--data-dir', root, '--port', String(port)], {
    cwd: workspaceRoot(),
  });
  await waitFor('landscape ready', () => proc.output().includes('Gardener landscape ready'), {
    timeoutMs: 240_000,
    intervalMs: 500,
  }).catch((err: Error) => {
    throw new Error(`${err.message}\n${proc.output().slice(-4000)}`);
  });
  return proc;
}

/** Whether OpenSSH's client (and ssh-keygen) is on the PATH. */
function hasOpenSSH(): boolean {
  return (process.env.PATH ?? '')
    .split(':')
    .some((d) => existsSync(join(d, 'ssh')) && existsSync(join(d, 'ssh-keygen')));
}

/** The processes of this landscape's garden components (their command lines name the pod volume dirs in `root`). */
const componentPids = () => pidsOf(join(root, 'kubelet', 'pods'));

/** Writes a fresh admin kubeconfig of a shoot (`gardener-local shoot kubeconfig`) to `dir/shoot-<name>.kubeconfig`. */
async function writeShootKubeconfig(name: string, namespace: string): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    [cli, 'shoot', 'kubeconfig', name, '-n', namespace, '--kubeconfig', kc()],
    { cwd: workspaceRoot() },
  );
  const file = join(dir, `shoot-${name}.kubeconfig`);
  await writeFile(file, stdout, { mode: 0o600 });
  return file;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gardener-landscape-'));
  root = join(dir, 'landscape');
  port = await freePort();
  up = await startLandscape();
}, 300_000);

afterAll(async () => {
  // The second seed runs detached (as `gardener-local cluster up`); stopped whatever the tests left.
  if (dir && existsSync(local2Root()))
    await run(process.execPath, [cli, 'seed', 'down', 'local2', '--data-dir', root], { timeout: 120_000 }).catch(
      () => undefined,
    );
  await up?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('gardener-local up: the local Gardener landscape', () => {
  it('prints a step checklist: every step done with its duration, or skipped with its reason', () => {
    // No warning the user cannot act on (DEP0169 comes from a dependency's url.parse()).
    expect(up.output()).not.toContain('DeprecationWarning');
    const lines = up.output().split('\n');
    expect(
      lines.some((l) => /^✓ runtime cluster landscape .* — https:\/\/127\.0\.0\.1:\d+ \(\d+\.\d+s\)$/.test(l)),
    ).toBe(true);
    expect(lines.some((l) => /^✓ Gardener API .* — \d+ CRDs established/.test(l))).toBe(true);
    expect(lines.some((l) => /^✓ NATS .* — nats:\/\/127\.0\.0\.1:\d+, events stream ready/.test(l))).toBe(true);
    expect(up.output()).toMatch(/export GARDENER_NATS_URL=nats:\/\/127\.0\.0\.1:\d+/);
    for (const app of GARDEN_COMPONENTS) {
      expect(
        lines.some((l) =>
          l.startsWith(
            `✓ ${app} (chart deploy/charts/${app}, image gardener-ts/${app}) — deployment gardener-${app} available`,
          ),
        ),
      ).toBe(true);
    }
    expect(lines.some((l) => /^✓ gardenlet for seed local .* — Seed local: GardenletReady, Bootstrapped/.test(l))).toBe(
      true,
    );
    expect(
      lines.some((l) =>
        /^✓ provider-local .* — ControllerInstallation provider-local-\w+ Installed, Healthy; pod running in extension-provider-local-\w+ /.test(
          l,
        ),
      ),
    ).toBe(true);
    expect(lines.some((l) => l.startsWith('✓ projects garden and local'))).toBe(true);
    expect(up.output()).not.toContain('"level"');
  });

  it('serves the Gardener API and runs the garden components as Pods from their charts', async () => {
    const pods = JSON.parse(await kubectl(kc(), ['-n', 'garden', 'get', 'pods', '-o', 'json'])) as {
      items: {
        metadata: { labels: Record<string, string> };
        status: { phase: string; containerStatuses?: { ready: boolean }[] };
      }[];
    };
    for (const app of GARDEN_COMPONENTS) {
      const pod = pods.items.find((p) => p.metadata.labels['app.kubernetes.io/instance'] === `gardener-${app}`);
      expect(pod?.status.phase, app).toBe('Running');
      expect(
        pod?.status.containerStatuses?.every((c) => c.ready),
        app,
      ).toBe(true);
    }
    expect(await kubectl(kc(), ['get', 'cloudprofile', 'local', '-o', 'jsonpath={.spec.type}'])).toBe('local');
    expect(await kubectl(kc(), ['get', 'project', 'local', '-o', 'jsonpath={.spec.namespace}'])).toBe('garden-local');
    expect(
      await kubectl(kc(), [
        '-n',
        'garden-local',
        'get',
        'credentialsbinding',
        'local',
        '-o',
        'jsonpath={.provider.type}',
      ]),
    ).toBe('local');
  });

  it('registers Seed local through the gardenlet, which bootstrapped with a bootstrap token and deploys its resource-manager', async () => {
    const seed = JSON.parse(await kubectl(kc(), ['get', 'seed', 'local', '-o', 'json'])) as {
      status: { conditions: { type: string; status: string }[]; lastOperation?: { state: string } };
    };
    for (const type of ['GardenletReady', 'Bootstrapped']) {
      expect(seed.status.conditions.find((c) => c.type === type)?.status, type).toBe('True');
    }
    expect(seed.status.lastOperation?.state).toBe('Succeeded');
    // The gardenlet's client certificate came from a CSR that the controller-manager approved.
    expect(await kubectl(kc(), ['get', 'csr', '-o', 'jsonpath={.items[*].spec.username}'])).toContain(
      'system:bootstrap:',
    );
    await waitFor(
      "the seed's gardener-resource-manager",
      async () =>
        (await kubectl(kc(), [
          '-n',
          'garden',
          'get',
          'deployment',
          'gardener-resource-manager',
          '--ignore-not-found',
          '-o',
          'jsonpath={.status.readyReplicas}',
        ])) === '1',
      { timeoutMs: 120_000, intervalMs: 500 },
    );
  });

  it('installs provider-local the Gardener way: ControllerInstallation Installed and Healthy, its Pod running in the seed', async () => {
    // Registered with its chart inline, as an operator registers an extension.
    const deployment = JSON.parse(
      await kubectl(kc(), ['get', 'controllerdeployment', 'provider-local', '-o', 'json']),
    ) as {
      apiVersion: string;
      helm: { rawChart: string };
    };
    expect(deployment.apiVersion).toBe('core.gardener.cloud/v1');
    expect(Buffer.from(deployment.helm.rawChart, 'base64').subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect(
      await kubectl(kc(), [
        'get',
        'controllerregistration',
        'provider-local',
        '-o',
        'jsonpath={.spec.deployment.policy}',
      ]),
    ).toBe('Always');
    // The controller-manager created the seed's installation; the gardenlet installed it.
    const installations = JSON.parse(await kubectl(kc(), ['get', 'controllerinstallations', '-o', 'json'])) as {
      items: {
        metadata: { name: string };
        spec: { registrationRef: { name: string }; seedRef: { name: string } };
        status?: { conditions?: { type: string; status: string }[] };
      }[];
    };
    const installation = installations.items.find(
      (i) => i.spec.registrationRef.name === 'provider-local' && i.spec.seedRef.name === 'local',
    );
    expect(installation, 'the ControllerInstallation of provider-local for seed local').toBeDefined();
    for (const type of ['Valid', 'Installed', 'Healthy']) {
      expect(installation!.status?.conditions?.find((c) => c.type === type)?.status, type).toBe('True');
    }
    const namespace = `extension-${installation!.metadata.name}`;
    expect(
      await kubectl(kc(), [
        '-n',
        'garden',
        'get',
        'managedresource',
        installation!.metadata.name,
        '-o',
        'jsonpath={.spec.class}',
      ]),
    ).toBe('seed');
    const pods = JSON.parse(
      await kubectl(kc(), [
        '-n',
        namespace,
        'get',
        'pods',
        '-l',
        'app.kubernetes.io/name=provider-local',
        '-o',
        'json',
      ]),
    ) as {
      items: {
        spec: { containers: { image: string }[] };
        status: { phase: string; containerStatuses?: { ready: boolean }[] };
      }[];
    };
    expect(pods.items).toHaveLength(1);
    expect(pods.items[0]!.spec.containers[0]!.image).toMatch(/^gardener-ts\/provider-local:/);
    expect(pods.items[0]!.status.phase).toBe('Running');
    expect(pods.items[0]!.status.containerStatuses?.every((c) => c.ready)).toBe(true);
    // The extension's side of the contract: its heartbeat Lease in its namespace.
    await waitFor(
      'the heartbeat of provider-local',
      async () =>
        (await kubectl(kc(), [
          '-n',
          namespace,
          'get',
          'lease',
          'gardener-extension-heartbeat',
          '--ignore-not-found',
          '-o',
          'jsonpath={.spec.holderIdentity}',
        ])) === 'gardener-extension-provider-local',
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    // The seed's backup (spec.backup, provider local, as Gardener's local setup): the gardenlet's BackupBucket, named
    // by the seed's UID, is a directory of the landscape made by provider-local; the controller-manager's seed checks
    // report it and the installed extensions.
    const seedUID = await kubectl(kc(), ['get', 'seed', 'local', '-o', 'jsonpath={.metadata.uid}']);
    await waitFor(
      "the seed's BackupBucket to succeed",
      async () =>
        (await kubectl(kc(), [
          'get',
          'backupbucket',
          seedUID,
          '--ignore-not-found',
          '-o',
          'jsonpath={.status.lastOperation.state}',
        ])) === 'Succeeded',
      { timeoutMs: 120_000, intervalMs: 1_000 },
    );
    expect(existsSync(join(root, 'local-backupbuckets', seedUID)), 'the bucket directory').toBe(true);
    await waitFor(
      'Seed local BackupBucketsReady and ExtensionsReady',
      async () => {
        const conditions = JSON.parse(
          await kubectl(kc(), ['get', 'seed', 'local', '-o', 'jsonpath={.status.conditions}']),
        ) as { type: string; status: string }[];
        return ['BackupBucketsReady', 'ExtensionsReady'].every(
          (t) => conditions.find((c) => c.type === t)?.status === 'True',
        );
      },
      { timeoutMs: 120_000, intervalMs: 1_000 },
    );
  });

  it("takes Gardener's example shoot with kubectl: admission defaults it and the scheduler binds it to Seed local", async () => {
    await kubectl(kc(), ['apply', '-f', join(workspaceRoot(), 'deploy/gardener/examples/local/shoot.yaml')]);
    expect(await kubectl(kc(), ['get', 'shoots', '-A'])).toMatch(/garden-local\s+local\s+local/);
    expect(
      await kubectl(kc(), ['-n', 'garden-local', 'get', 'shoot', 'local', '-o', 'jsonpath={.spec.kubernetes.version}']),
    ).toMatch(/^\d+\.\d+\.\d+$/);
    // ShootMutator: the tasks of a new Shoot (the gardenlet removes them once its flow succeeded).
    expect(
      await kubectl(kc(), [
        '-n',
        'garden-local',
        'get',
        'shoot',
        'local',
        '-o',
        'jsonpath={.metadata.annotations.shoot\\.gardener\\.cloud/tasks}',
      ]),
    ).toContain('deployInfrastructure');
    await waitFor(
      'the scheduler to bind the shoot',
      async () =>
        (await kubectl(kc(), ['-n', 'garden-local', 'get', 'shoot', 'local', '-o', 'jsonpath={.spec.seedName}'])) ===
        'local',
      { timeoutMs: 60_000, intervalMs: 500 },
    );
  });

  it('reconciles the example shoot to healthy, also when the gardenlet is killed (-9) in the middle of the flow: control plane and machine in the seed, the flow shown by the CLI from NATS, the five conditions True, its node Ready and a Pod running on it, reached with the admin kubeconfig', async () => {
    const shootJson = async () =>
      JSON.parse(await kubectl(kc(), ['-n', 'garden-local', 'get', 'shoot', 'local', '-o', 'json'])) as {
        metadata?: { annotations?: Record<string, string> };
        spec?: { dns?: { domain?: string } };
        status?: {
          technicalID?: string;
          lastOperation?: { type: string; state: string; progress: number };
          advertisedAddresses?: { name: string; url: string }[];
          conditions?: { type: string; status: string; reason: string }[];
        };
      };
    // A crash in the middle of the flow: once it is under way the gardenlet is killed with SIGKILL. The seed's kubelet
    // restarts its container and the new gardenlet takes the flow up again (the last operation did not succeed).
    let killedAt: number | undefined;
    await waitFor(
      'the example shoot to be reconciled (lastOperation Create Succeeded)',
      async () => {
        const op = (await shootJson()).status?.lastOperation;
        if (killedAt === undefined && op?.type === 'Create' && op.state === 'Processing' && op.progress >= 20) {
          const gardenlet = await pidsOf(`dist/apps/gardenlet/main.js --config ${join(seedRoot(), 'kubelet', 'pods')}`);
          for (const pid of gardenlet) process.kill(pid, 'SIGKILL');
          if (gardenlet.length > 0) killedAt = op.progress;
        }
        return op?.type === 'Create' && op.state === 'Succeeded';
      },
      { timeoutMs: 600_000, intervalMs: 2_000 },
    ).catch(async (err: Error) => {
      const pods = await kubectl(kc(), ['-n', 'shoot--local--local', 'get', 'pods', '-o', 'wide']).catch(() => '');
      throw new Error(`${err.message}\nstatus: ${JSON.stringify((await shootJson()).status)}\n${pods}`);
    });
    expect(killedAt, 'the gardenlet was killed while the flow ran').toBeDefined();
    expect(
      await kubectl(kc(), [
        '-n',
        'garden',
        'get',
        'pods',
        '-l',
        'app.kubernetes.io/name=gardenlet',
        '-o',
        'jsonpath={.items[*].status.containerStatuses[*].restartCount}',
      ]),
    ).not.toBe('0');
    const shoot = await shootJson();
    await waitFor(
      'the gardenlet to remove the tasks annotation after the flow',
      async () => (await shootJson()).metadata?.annotations?.['shoot.gardener.cloud/tasks'] === undefined,
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    expect(shoot.status?.technicalID).toBe('shoot--local--local');
    expect(shoot.status?.lastOperation?.progress).toBe(100);
    // The default domain of the garden gave the shoot `spec.dns.domain` and an external DNSRecord: the external
    // address first, then the internal one, then the load balancer's (what this host can reach).
    expect(shoot.spec?.dns?.domain).toBe('local.local.external.local.gardener.cloud');
    expect(shoot.status?.advertisedAddresses?.map((a) => a.name)).toEqual(['external', 'internal', 'unmanaged']);
    expect(shoot.status?.advertisedAddresses?.[0]?.url).toBe('https://api.local.local.external.local.gardener.cloud');
    expect(shoot.status?.advertisedAddresses?.find((a) => a.name === 'unmanaged')?.url).toMatch(
      /^https:\/\/127\.0\.0\.1:\d+$/,
    );
    expect(await kubectl(seedKc(), ['-n', 'shoot--local--local', 'get', 'dnsrecords', '-o', 'name'])).toContain(
      'dnsrecord.extensions.gardener.cloud/local-external',
    );

    // What a user runs: the CLI replays the flow's progress from NATS (JetStream history) and shows where it stands.
    const nats = /GARDENER_NATS_URL=(\S+)/.exec(up.output())?.[1];
    expect(nats).toBeDefined();
    const watched = await run(
      process.execPath,
      [cli, 'shoot', 'watch', 'local', '-n', 'garden-local', '--kubeconfig', kc(), '--nats', nats!, '--timeout', '10s'],
      { cwd: workspaceRoot(), timeout: 60_000 },
    ).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
    expect(watched.stdout).toMatch(/100%\s+Create Succeeded/);

    // The control plane as Pods in the seed, and the shoot's machine.
    const ns = ['-n', 'shoot--local--local'];
    expect(await kubectl(kc(), [...ns, 'get', 'etcd', '-o', 'jsonpath={.items[*].status.ready}'])).toBe('true true');
    // etcd-main backs up into the shoot's BackupEntry: a full snapshot in `<bucket>/<entry>/etcd-main/v2` of the
    // landscape's backup directory (provider-local's buckets), as etcd-backup-restore lays it out.
    const snapshots = (readdirSync(join(root, 'local-backupbuckets'), { recursive: true }) as string[]).filter((f) =>
      /\/etcd-main\/v2\/Full-\d{8}-\d{8}-\d+/.test(f),
    );
    expect(snapshots, 'a full snapshot of etcd-main in the backup bucket').not.toEqual([]);
    for (const deployment of [
      'kube-apiserver',
      'gardener-resource-manager',
      'kube-controller-manager',
      'kube-scheduler',
    ]) {
      expect(
        await kubectl(kc(), [...ns, 'get', 'deployment', deployment, '-o', 'jsonpath={.status.availableReplicas}']),
        deployment,
      ).toBe('1');
    }
    // Converged without duplicates: one machine, one of each extension resource.
    const names = async (resource: string) =>
      (await kubectl(kc(), [...ns, 'get', resource, '-o', 'name'])).split('\n').filter(Boolean);
    expect(await names('machines')).toEqual([expect.stringMatching(/^machine\.machine\.sapcloud\.io\//)]);
    for (const kind of ['infrastructures', 'controlplanes', 'workers'])
      expect(await names(`${kind}.extensions.gardener.cloud`), kind).toHaveLength(1);
    // The shoot's BackupEntry in the seed's bucket: Succeeded, and the etcd-backup Secret provider-local deployed.
    const entries = JSON.parse(await kubectl(kc(), ['-n', 'garden-local', 'get', 'backupentries', '-o', 'json'])) as {
      items: {
        metadata: { name: string };
        spec: { bucketName: string };
        status?: { lastOperation?: { state: string } };
      }[];
    };
    expect(entries.items.map((e) => [e.spec.bucketName, e.status?.lastOperation?.state])).toEqual([
      [await kubectl(kc(), ['get', 'seed', 'local', '-o', 'jsonpath={.metadata.uid}']), 'Succeeded'],
    ]);
    expect(entries.items[0]!.metadata.name).toMatch(/^shoot--local--local--[0-9a-f-]{36}$/);
    expect(
      Buffer.from(
        await kubectl(kc(), [...ns, 'get', 'secret', 'etcd-backup', '-o', 'jsonpath={.data.bucketName}']),
        'base64',
      ).toString(),
    ).toBe(entries.items[0]!.spec.bucketName);
    // The kube-apiserver's internal DNS record (the seed's internal domain), handled by provider-local.
    expect(
      await kubectl(kc(), [
        ...ns,
        'get',
        'dnsrecord',
        'local-internal',
        '-o',
        'jsonpath={.spec.name} {.status.lastOperation.state}',
      ]),
    ).toBe('api.local.local.internal.local.gardener.cloud Succeeded');

    // The shoot care reconciler's view: all five conditions True once the machine's node has joined.
    await waitFor(
      'the five shoot conditions to be True',
      async () => {
        const conditions = (await shootJson()).status?.conditions ?? [];
        return conditions.length === 5 && conditions.every((c) => c.status === 'True');
      },
      { timeoutMs: 300_000, intervalMs: 2_000 },
    ).catch(async (err: Error) => {
      throw new Error(`${err.message}\nconditions: ${JSON.stringify((await shootJson()).status?.conditions)}`);
    });
    expect(await kubectl(kc(), ['get', 'shoots', '-A'])).toMatch(/garden-local\s+local\s.*Create\s+healthy/);

    // The shoot's own API server, with a short-lived admin kubeconfig.
    const shootKc = await writeShootKubeconfig('local', 'garden-local');
    expect(await kubectl(shootKc, ['get', 'namespaces', '-o', 'name'])).toContain('namespace/kube-system');
    // The shoot's system resources (shoot-core-system): what tools in the shoot read about it, and the read-only role.
    expect(
      await kubectl(shootKc, [
        '-n',
        'kube-system',
        'get',
        'configmap',
        'shoot-info',
        '-o',
        'jsonpath={.data.shootName}/{.data.projectName}/{.data.provider}',
      ]),
    ).toBe('local/local/local');
    expect(
      (await kubectl(shootKc, ['get', 'clusterrole', 'gardener.cloud:system:read-only', '-o', 'name'])).trim(),
    ).toBe('clusterrole.rbac.authorization.k8s.io/gardener.cloud:system:read-only');
    await kubectl(shootKc, ['create', 'namespace', 'hello']);
    expect(await kubectl(shootKc, ['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.groups}'])).toContain(
      'system:masters',
    );
    // Its node (the machine's kubelet) is Ready, and a workload Pod runs on it.
    expect(
      await kubectl(shootKc, [
        'get',
        'nodes',
        '-o',
        'jsonpath={.items[*].status.conditions[?(@.type=="Ready")].status}',
      ]),
    ).toBe('True');
    // The machine's own bootstrap token (the machine controller's, as machine-controller-manager's) is gone once the
    // machine runs: its node-agent and kubelet have their own credentials.
    expect(
      (await kubectl(shootKc, ['-n', 'kube-system', 'get', 'secrets', '-o', 'name']))
        .split('\n')
        .filter((n) => n.includes('bootstrap-token-')),
    ).toEqual([]);
    await kubectl(shootKc, ['-n', 'hello', 'run', 'nats', '--image=nats', '--restart=Never', '--', '-p', '-1']);
    await waitFor(
      'the workload Pod to run on the shoot node',
      async () =>
        (await kubectl(shootKc, ['-n', 'hello', 'get', 'pod', 'nats', '-o', 'jsonpath={.status.phase}'])) === 'Running',
      { timeoutMs: 120_000, intervalMs: 1_000 },
    );
  }, 900_000);

  it("serves a Deployment through its NodePort Service: the shoot's kube-proxy on the node forwards to the Pod; kubectl logs and exec reach it", async () => {
    const shootKc = join(dir, 'shoot-local.kubeconfig');
    // kube-proxy runs on the shoot's node as Gardener deploys it (a DaemonSet per pool and Kubernetes version).
    await waitFor(
      "the shoot's kube-proxy to be ready on its node",
      async () =>
        (await kubectl(shootKc, [
          '-n',
          'kube-system',
          'get',
          'pods',
          '-l',
          'app=kubernetes,role=proxy',
          '-o',
          'jsonpath={.items[*].status.conditions[?(@.type=="Ready")].status}',
        ]).catch(() => '')) === 'True',
      { timeoutMs: 180_000, intervalMs: 2_000 },
    );
    // A small HTTP program (NATS's monitoring endpoint) as a user deploys it, with a NodePort Service in front.
    const manifest = `
apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: hello }
spec:
  replicas: 1
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
      - name: nats
        image: nats
        args: ["-p", "-1", "-m", "28222"]
        ports: [{ name: http, containerPort: 28222 }]
        readinessProbe: { httpGet: { path: /healthz, port: http } }
---
apiVersion: v1
kind: Service
metadata: { name: web, namespace: hello }
spec:
  type: NodePort
  selector: { app: web }
  ports: [{ name: http, port: 80, targetPort: http }]
`;
    await kubectl(shootKc, ['apply', '-f', '-'], { input: manifest });
    const nodePort = Number(
      await kubectl(shootKc, ['-n', 'hello', 'get', 'service', 'web', '-o', 'jsonpath={.spec.ports[0].nodePort}']),
    );
    expect(nodePort).toBeGreaterThanOrEqual(30000);
    // The node's address is 127.0.0.1: the Service answers on its node port there.
    const varz = await waitFor(
      'the Deployment to answer through its Service',
      async () => {
        const response = await fetch(`http://127.0.0.1:${nodePort}/varz`).catch(() => undefined);
        return response?.ok ? ((await response.json()) as { server_id?: string; http_port?: number }) : undefined;
      },
      { timeoutMs: 180_000, intervalMs: 2_000 },
    ).catch(async (err: Error) => {
      throw new Error(`${err.message}\n${await workloadDiagnostics(shootKc)}`);
    });
    expect(varz.http_port).toBe(28222);
    expect(varz.server_id).toMatch(/^N/);
    // kubectl logs and exec through the shoot's kube-apiserver, which authenticates to the node's kubelet with its
    // ca-kubelet client certificate (the kubelet trusts that CA, as Gardener's nodes do).
    expect(await kubectl(shootKc, ['-n', 'hello', 'logs', 'deployment/web'])).toContain(varz.server_id!);
    // (The nats image has no shell or echo, as the real one: exec runs its own program.)
    const exec = await kubectl(shootKc, ['-n', 'hello', 'exec', 'deployment/web', '--', 'nats-server', '--version']);
    expect(exec).toMatch(/^nats-server: v\d+\.\d+/);
  }, 400_000);

  /**
   * What a failed workload check needs to be understood: the shoot's Pods, Services and EndpointSlices, the web Pod's
   * status, the events, the node, kube-proxy's log, and the seed's machine Pods.
   */
  const workloadDiagnostics = async (shootKc: string) => {
    const show = async (title: string, config: string, args: string[]) =>
      `--- ${title}\n${await kubectl(config, args).catch((e: Error) => `(failed: ${e.message})`)}`;
    const parts = await Promise.all([
      show('shoot pods, services, endpointslices', shootKc, [
        'get',
        'pods,services,endpointslices',
        '-A',
        '-o',
        'wide',
      ]),
      show('web pods', shootKc, ['-n', 'hello', 'get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[*].status}']),
      show('shoot events', shootKc, ['get', 'events', '-A']),
      show('shoot nodes', shootKc, ['get', 'nodes', '-o', 'jsonpath={.items[*].status.conditions}']),
      show('kube-proxy log', shootKc, ['-n', 'kube-system', 'logs', '-l', 'role=proxy', '--tail', '60']),
      show('seed machine pods', seedKc(), ['-n', 'shoot--local--local', 'get', 'pods,machines', '-o', 'wide']),
    ]);
    return parts.join('\n');
  };

  /** `gardener-local shoot VERB local` as a user runs it, ending with the final Shoot as JSON. */
  const shootCli = async (verb: string, timeout: string) => {
    const { stdout } = await run(
      process.execPath,
      [cli, 'shoot', verb, 'local', '-n', 'garden-local', '--kubeconfig', kc(), '--timeout', timeout, '-o', 'json'],
      { cwd: workspaceRoot(), timeout: 900_000, maxBuffer: 16 * 1024 * 1024 },
    ).catch((err: Error & { stdout?: string; stderr?: string }) => {
      throw new Error(`shoot ${verb}: ${err.message}\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
    });
    return JSON.parse(stdout) as {
      status?: {
        hibernated?: boolean;
        lastOperation?: { type: string; state: string };
        conditions?: { type: string; status: string }[];
      };
    } | null;
  };
  /**
   * Runs a shoot flow (`flow`, the CLI waiting for it) and kills the gardenlet with SIGKILL once the shoot's last
   * operation of `type` is Processing at 20 % or more; the seed's kubelet restarts it. `killedAt` is the progress
   * then, undefined when the flow ended before.
   */
  const killGardenletDuring = async <T>(type: 'Reconcile' | 'Delete', flow: Promise<T>) => {
    let killedAt: number | undefined;
    let finished = false;
    const done = flow.finally(() => (finished = true));
    const killer = waitFor(
      `the ${type} flow to be under way (to kill the gardenlet)`,
      async () => {
        if (finished) return true;
        const json = await kubectl(kc(), [
          '-n',
          'garden-local',
          'get',
          'shoot',
          'local',
          '--ignore-not-found',
          '-o',
          'jsonpath={.status.lastOperation}',
        ]).catch(() => '');
        const op = JSON.parse(json || '{}') as { type?: string; state?: string; progress?: number };
        if (op.type !== type || op.state !== 'Processing' || (op.progress ?? 0) < 20) return false;
        const gardenlet = await pidsOf(`dist/apps/gardenlet/main.js --config ${join(seedRoot(), 'kubelet', 'pods')}`);
        for (const pid of gardenlet) process.kill(pid, 'SIGKILL');
        if (gardenlet.length > 0) killedAt = op.progress;
        return killedAt !== undefined;
      },
      { timeoutMs: 900_000, intervalMs: 500 },
    );
    const result = await done;
    await killer;
    return { result, killedAt };
  };
  const seedPods = async () =>
    (await kubectl(seedKc(), ['-n', 'shoot--local--local', 'get', 'pods', '-o', 'jsonpath={.items[*].metadata.name}']))
      .split(' ')
      .filter(Boolean);
  const webVarz = async (nodePort: number) => {
    const response = await fetch(`http://127.0.0.1:${nodePort}/varz`, { signal: AbortSignal.timeout(2_000) }).catch(
      () => undefined,
    );
    return response?.ok ? ((await response.json()) as { http_port?: number }) : undefined;
  };

  // A Bastion as gardenctl creates one, then OpenSSH through it to the node (`ssh -J`): the bastion listens on port 22
  // of its Pod address (root only), and OpenSSH's client must be installed (bootstrap.sh installs openssh-client).
  const sshSkip =
    process.getuid?.() !== 0 ? 'needs root (the bastion binds port 22)' : !hasOpenSSH() ? 'needs ssh' : '';
  it.skipIf(sshSkip !== '')(
    `reaches the shoot's node with OpenSSH through a Bastion (ssh -J), with the shoot's ssh-keypair${sshSkip ? ` — skipped: ${sshSkip}` : ''}`,
    async () => {
      const keys = await mkdtemp(join(tmpdir(), 'bastion-keys-'));
      try {
        const userKey = join(keys, 'user');
        await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', userKey]);
        const publicKey = readFileSync(`${userKey}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' ');
        await kubectl(kc(), ['apply', '-f', '-'], {
          input: `apiVersion: operations.gardener.cloud/v1alpha1
kind: Bastion
metadata: { name: cli-user, namespace: garden-local }
spec:
  shootRef: { name: local }
  sshPublicKey: ${publicKey}
  ingress:
  - ipBlock: { cidr: 127.0.0.0/8 }
`,
        });
        const bastionStatus = ['-n', 'garden-local', 'get', 'bastion', 'cli-user', '-o'];
        await waitFor(
          'the Bastion to be ready',
          async () =>
            (await kubectl(kc(), [
              ...bastionStatus,
              'jsonpath={.status.conditions[?(@.type=="BastionReady")].status}',
            ])) === 'True',
          { timeoutMs: 120_000, intervalMs: 1_000 },
        );
        const bastion = await kubectl(kc(), [...bastionStatus, 'jsonpath={.status.ingress.ip}']);
        expect(bastion).toMatch(/^127\./);
        // The shoot's SSH key pair, as gardenctl reads it from the project namespace.
        const shootKey = join(keys, 'shoot');
        const privateKey = await kubectl(kc(), [
          '-n',
          'garden-local',
          'get',
          'secret',
          'local.ssh-keypair',
          '-o',
          'jsonpath={.data.id_rsa}',
        ]);
        await writeFile(shootKey, Buffer.from(privateKey, 'base64'), { mode: 0o600 });
        const shootKc = join(dir, 'shoot-local.kubeconfig');
        const node = await kubectl(shootKc, ['get', 'nodes', '-o', 'jsonpath={.items[0].metadata.name}']);
        const options = [
          '-o',
          'StrictHostKeyChecking=no',
          '-o',
          'UserKnownHostsFile=/dev/null',
          '-o',
          'IdentitiesOnly=yes',
        ];
        const ssh = (identity: string, command: string) =>
          run(
            'ssh',
            [
              ...options,
              '-i',
              shootKey,
              '-o',
              `ProxyCommand=ssh ${options.join(' ')} -i ${identity} -W %h:%p gardener@${bastion}`,
              `gardener@${node}`,
              command,
            ],
            { timeout: 30_000 },
          );
        // The command runs on the node: its root directory holds the node's hostname (the Machine's name).
        expect((await ssh(userKey, 'cat etc/hostname')).stdout.trim()).toBe(node);
        // A key the Bastion was not created for does not get through it.
        const otherKey = join(keys, 'other');
        await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', otherKey]);
        await expect(ssh(otherKey, 'true')).rejects.toThrow();
        // Deleting the Bastion removes the jump host from the seed.
        await kubectl(kc(), ['-n', 'garden-local', 'delete', 'bastion', 'cli-user', '--wait=false']);
        await waitFor(
          'the bastion Pod to be gone',
          async () =>
            (await kubectl(seedKc(), ['-n', 'shoot--local--local', 'get', 'pods', '-o', 'name'])).includes(
              'pod/bastion-cli-user',
            ) === false,
          { timeoutMs: 120_000, intervalMs: 1_000 },
        );
      } finally {
        await rm(keys, { recursive: true, force: true });
      }
    },
    360_000,
  );

  it("survives kill -9 of the shoot's kube-apiserver and etcd: the care conditions go False, then back to True, and no data is lost", async () => {
    const shootKc = join(dir, 'shoot-local.kubeconfig');
    const shootNs = ['-n', 'shoot--local--local'];
    const podUID = (selector: string[]) =>
      kubectl(kc(), [...shootNs, 'get', 'pods', ...selector, '-o', 'jsonpath={.items[0].metadata.uid}']);
    const apiServerPod = await podUID(['-l', 'app=kubernetes,role=apiserver']);
    const etcdPod = await podUID(['--field-selector', 'metadata.name=etcd-main-0']);
    expect(apiServerPod).not.toBe('');
    expect(etcdPod).not.toBe('');
    /** The pids of a container's processes: their command lines name the Pod's directory and the program. */
    const containerPids = async (pod: string, program: string) =>
      (await pidsOf(join(root, 'kubelet', 'pods', pod))).filter((pid) =>
        existsSync(`/proc/${pid}/cmdline`) ? readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(program) : false,
      );
    const condition = (type: string) =>
      kubectl(kc(), [
        '-n',
        'garden-local',
        'get',
        'shoot',
        'local',
        '-o',
        `jsonpath={.status.conditions[?(@.type=="${type}")].status}`,
      ]);
    expect(await containerPids(apiServerPod, 'apiserver')).not.toEqual([]);
    expect(await containerPids(etcdPod, '/usr/bin/etcd')).not.toEqual([]);
    // SIGKILL both whenever the kubelet has restarted them (its restart back-off grows with each crash), until the
    // shoot care reconciler has seen the API server down.
    let kills = 0;
    await waitFor(
      'APIServerAvailable to be False while the shoot kube-apiserver and etcd are killed (-9)',
      async () => {
        for (const pid of [
          ...(await containerPids(apiServerPod, 'apiserver')),
          ...(await containerPids(etcdPod, '/usr/bin/etcd')),
        ]) {
          process.kill(pid, 'SIGKILL');
          kills++;
        }
        return (await condition('APIServerAvailable')) === 'False';
      },
      { timeoutMs: 180_000, intervalMs: 2_000 },
    );
    expect(kills).toBeGreaterThanOrEqual(2);
    // The kubelet restarts both containers; the next care run finds the shoot healthy again.
    await waitFor(
      'the five conditions to be True again after the kills',
      async () => {
        const statuses = await kubectl(kc(), [
          '-n',
          'garden-local',
          'get',
          'shoot',
          'local',
          '-o',
          'jsonpath={.status.conditions[*].status}',
        ]);
        return statuses === 'True True True True True';
      },
      { timeoutMs: 240_000, intervalMs: 2_000 },
    );
    // etcd lost nothing it had acknowledged: the workload written before the kills is still there.
    expect(await kubectl(shootKc, ['-n', 'hello', 'get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}'])).toBe(
      '1',
    );
  }, 600_000);

  it('rotates all credentials in two phases: the node rolls onto the new CA, the workload keeps answering, and the old admin kubeconfig is refused once completed', async () => {
    const shootKc = join(dir, 'shoot-local.kubeconfig');
    const oldKc = join(dir, 'shoot-local-before-rotation.kubeconfig');
    await writeFile(oldKc, readFileSync(shootKc), { mode: 0o600 });
    const nodePort = Number(
      await kubectl(shootKc, ['-n', 'hello', 'get', 'service', 'web', '-o', 'jsonpath={.spec.ports[0].nodePort}']),
    );
    const nodesBefore = await kubectl(shootKc, ['get', 'nodes', '-o', 'jsonpath={.items[*].metadata.name}']);
    type Rotation = { phase?: string; lastInitiationTime?: string; lastCompletionTime?: string };
    const shootStatus = async () =>
      JSON.parse(await kubectl(kc(), ['-n', 'garden-local', 'get', 'shoot', 'local', '-o', 'jsonpath={.status}'])) as {
        lastOperation?: { state?: string; type?: string };
        credentials?: { rotation?: { certificateAuthorities?: Rotation; serviceAccountKey?: Rotation } };
      };
    const annotate = (operation: string) =>
      kubectl(kc(), [
        '-n',
        'garden-local',
        'annotate',
        'shoot',
        'local',
        `gardener.cloud/operation=${operation}`,
        '--overwrite',
      ]);
    const untilPhase = (phase: string) =>
      waitFor(
        `the CA rotation to be ${phase} and the flow to succeed`,
        async () => {
          const status = await shootStatus();
          const ca = status.credentials?.rotation?.certificateAuthorities;
          return ca?.phase === phase && status.lastOperation?.state === 'Succeeded' ? status : undefined;
        },
        { timeoutMs: 600_000, intervalMs: 2_000 },
      );
    const adminKubeconfig = () => writeShootKubeconfig('local', 'garden-local');

    await annotate('rotate-credentials-start');
    const prepared = await untilPhase('Prepared');
    expect(prepared.credentials?.rotation?.serviceAccountKey?.phase).toBe('Prepared');
    // Preparing rolled the machine: a new node, Ready, with credentials of the new CA; the old kubeconfig still works.
    await adminKubeconfig();
    const nodesPrepared = await kubectl(shootKc, ['get', 'nodes', '-o', 'jsonpath={.items[*].metadata.name}']);
    expect(nodesPrepared).not.toBe(nodesBefore);
    expect((await kubectl(oldKc, ['get', 'namespace', 'hello', '-o', 'name'])).trim()).toBe('namespace/hello');

    await annotate('rotate-credentials-complete');
    const completed = await untilPhase('Completed');
    expect(completed.credentials?.rotation?.certificateAuthorities?.lastCompletionTime).toBeDefined();
    expect(
      await kubectl(kc(), ['-n', 'garden-local', 'get', 'shoot', 'local', '-o', 'jsonpath={.metadata.annotations}']),
    ).not.toContain('rotate-credentials');
    // The old CA is gone: the admin kubeconfig from before is refused, a new one works, the node stays Ready.
    const refused = await kubectl(oldKc, ['get', 'namespaces', '--request-timeout=10s']).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(refused, 'the pre-rotation admin kubeconfig is refused').toBeDefined();
    await adminKubeconfig();
    await waitFor(
      'the node to be Ready after the rotation',
      async () =>
        (await kubectl(shootKc, [
          'get',
          'nodes',
          '-o',
          'jsonpath={.items[*].status.conditions[?(@.type=="Ready")].status}',
        ])) === 'True',
      { timeoutMs: 120_000, intervalMs: 2_000 },
    );
    // The workload moved with the node and answers on its node port again.
    const varz = await waitFor(
      'the Deployment to answer through its node port after the rotation',
      () => webVarz(nodePort),
      {
        timeoutMs: 240_000,
        intervalMs: 2_000,
      },
    ).catch(async (err: Error) => {
      throw new Error(`${err.message}\n${await workloadDiagnostics(shootKc)}`);
    });
    expect(varz.http_port).toBe(28222);
  }, 1_500_000);

  it('hibernates the shoot: its machine and control plane go, and waking it up brings it back with its workloads', async () => {
    const shootKc = join(dir, 'shoot-local.kubeconfig');
    const nodePort = Number(
      await kubectl(shootKc, ['-n', 'hello', 'get', 'service', 'web', '-o', 'jsonpath={.spec.ports[0].nodePort}']),
    );
    // A crash in the middle of the hibernation flow: the restarted gardenlet takes it up again.
    const { result: hibernated, killedAt } = await killGardenletDuring('Reconcile', shootCli('hibernate', '10m'));
    expect(killedAt, 'the gardenlet was killed while the hibernation flow ran').toBeDefined();
    expect(hibernated?.status?.hibernated).toBe(true);
    expect(hibernated?.status?.lastOperation).toMatchObject({ type: 'Reconcile', state: 'Succeeded' });
    // No machine, no etcd, no API server: nothing of the shoot runs in the seed any more, and its node port is closed.
    expect(await kubectl(kc(), ['-n', 'shoot--local--local', 'get', 'machines', '-o', 'name'])).toBe('');
    await waitFor(
      'the control plane Pods to be gone',
      async () => ((await seedPods()).length === 0 ? true : undefined),
      {
        timeoutMs: 120_000,
        intervalMs: 2_000,
      },
    ).catch(async (err: Error) => {
      throw new Error(`${err.message}: ${(await seedPods()).join(', ')}`);
    });
    expect(await webVarz(nodePort)).toBeUndefined();
    // The workload processes went with their machine.
    expect(await pidsOf('-m 28222')).toEqual([]);

    const awake = await shootCli('wake-up', '12m');
    expect(awake?.status?.hibernated).toBe(false);
    expect(awake?.status?.conditions?.every((c) => c.status === 'True')).toBe(true);
    // etcd kept the shoot's state: the Deployment and its Service (with the same node port) are still there.
    const shootKcAfter = join(dir, 'shoot-local.kubeconfig');
    expect(
      await kubectl(shootKcAfter, ['-n', 'hello', 'get', 'service', 'web', '-o', 'jsonpath={.spec.ports[0].nodePort}']),
    ).toBe(String(nodePort));
    expect(
      await kubectl(shootKcAfter, ['-n', 'hello', 'get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}']),
    ).toBe('1');
    expect(
      await kubectl(shootKcAfter, [
        'get',
        'nodes',
        '-o',
        'jsonpath={.items[*].status.conditions[?(@.type=="Ready")].status}',
      ]),
    ).toBe('True');
    // The Pod bound to the old Node is collected by the shoot's pod garbage collector (as ServiceAccount
    // pod-garbage-collector, kube's RBAC), and its replacement answers on the same node port.
    const varz = await waitFor('the Deployment to answer again through its node port', () => webVarz(nodePort), {
      timeoutMs: 240_000,
      intervalMs: 2_000,
    }).catch(async (err: Error) => {
      throw new Error(`${err.message}\n${await workloadDiagnostics(shootKcAfter)}`);
    });
    expect(varz.http_port).toBe(28222);
  }, 1_500_000);

  it('migrates the shoot to a second seed (gardener-local seed up local2): the control plane moves with its data, the machine keeps its name, the workload answers again', async () => {
    // A second seed the way Gardener's local setup adds local2: its own cluster, a gardenlet bootstrapped against
    // the garden, provider-local installed on it by the ControllerRegistration's policy Always.
    const { stdout: seedUp } = await run(process.execPath, [cli, 'seed', 'up', 'local2', '--data-dir', root], {
      cwd: workspaceRoot(),
      timeout: 300_000,
    }).catch((err: Error & { stdout?: string; stderr?: string }) => {
      throw new Error(`seed up local2: ${err.message}\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
    });
    expect(seedUp).toMatch(/^✓ cluster local2 .*$/m);
    expect(seedUp).toMatch(/^✓ gardenlet for seed local2 .* — Seed local2: GardenletReady, Bootstrapped/m);
    expect(seedUp).toMatch(/^✓ provider-local on seed local2 .* Installed, Healthy/m);
    const local2Kc = join(local2Root(), 'kubeconfig');
    const shootKc = join(dir, 'shoot-local.kubeconfig');
    const nodePort = Number(
      await kubectl(shootKc, ['-n', 'hello', 'get', 'service', 'web', '-o', 'jsonpath={.spec.ports[0].nodePort}']),
    );
    const nodes = async (kubeconfig: string) =>
      (await kubectl(kubeconfig, ['get', 'nodes', '-o', 'jsonpath={.items[*].metadata.name}'])).split(' ').sort();
    const nodesBefore = await nodes(shootKc);
    expect(nodesBefore.length).toBe(1);
    // Data written just before the move: etcd's final snapshot must carry it.
    await kubectl(shootKc, ['-n', 'hello', 'create', 'configmap', 'before-migration', '--from-literal=seed=local']);

    // The operator moves the shoot (Gardener: shoots/binding; our CRD Shoots take it as an update of spec.seedName,
    // allowed to whoever may update shoots/binding).
    await kubectl(kc(), [
      '-n',
      'garden-local',
      'patch',
      'shoot',
      'local',
      '--type=merge',
      '-p',
      '{"spec":{"seedName":"local2"}}',
    ]);
    seedRoot = local2Root;
    const status = async () =>
      JSON.parse(await kubectl(kc(), ['-n', 'garden-local', 'get', 'shoot', 'local', '-o', 'jsonpath={.status}'])) as {
        seedName?: string;
        lastOperation?: { type: string; state: string };
        lastErrors?: unknown[];
        conditions?: { type: string; status: string }[];
      };
    await waitFor(
      'the shoot to be restored on seed local2 (lastOperation Restore Succeeded)',
      async () => {
        const s = await status();
        return s.seedName === 'local2' && s.lastOperation?.type === 'Restore' && s.lastOperation.state === 'Succeeded';
      },
      { timeoutMs: 900_000, intervalMs: 2_000 },
    ).catch(async (err: Error) => {
      throw new Error(`${err.message}: ${JSON.stringify(await status())}`);
    });
    // The source seed is clean; the destination runs the control plane and the machine.
    expect(await kubectl(kc(), ['get', 'namespace', 'shoot--local--local', '--ignore-not-found', '-o', 'name'])).toBe(
      '',
    );
    expect(await kubectl(local2Kc, ['-n', 'shoot--local--local', 'get', 'etcds,machines', '-o', 'name'])).toMatch(
      /etcd\.druid\.gardener\.cloud\/etcd-main[\s\S]*machine\.machine\.sapcloud\.io\//,
    );
    expect(
      await kubectl(kc(), ['-n', 'garden-local', 'get', 'backupentries', '-o', 'jsonpath={.items[*].spec.seedName}']),
    ).toBe('local2');

    // The shoot's admin kubeconfig, from the garden alone (the client CA the gardenlet syncs there): it moved with the
    // ShootState, and the new seed's API server address comes with it.
    await writeShootKubeconfig('local', 'garden-local');
    expect(
      await kubectl(shootKc, ['-n', 'hello', 'get', 'configmap', 'before-migration', '-o', 'jsonpath={.data.seed}']),
    ).toBe('local');
    expect(await kubectl(shootKc, ['-n', 'hello', 'get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}'])).toBe(
      '1',
    );
    // The machine state moved too (GEP-22): the same Node, Ready again.
    await waitFor(
      'the shoot to be healthy on seed local2 (five conditions True)',
      async () => {
        const conditions = (await status()).conditions ?? [];
        return conditions.length === 5 && conditions.every((c) => c.status === 'True');
      },
      { timeoutMs: 300_000, intervalMs: 2_000 },
    ).catch(async (err: Error) => {
      throw new Error(`${err.message}: ${JSON.stringify((await status()).conditions)}`);
    });
    expect(await nodes(shootKc)).toEqual(nodesBefore);
    const varz = await waitFor(
      'the Deployment to answer through its node port on seed local2',
      () => webVarz(nodePort),
      {
        timeoutMs: 240_000,
        intervalMs: 2_000,
      },
    ).catch(async (err: Error) => {
      throw new Error(`${err.message}\n${await workloadDiagnostics(shootKc)}`);
    });
    expect(varz.http_port).toBe(28222);
  }, 1_500_000);

  it('stops every process on SIGTERM, and a second up resumes the same landscape with its data', async () => {
    expect((await componentPids()).length).toBeGreaterThanOrEqual(GARDEN_COMPONENTS.length);
    // A graceful stop: every Pod (the shoot's control plane too) gets its termination grace period.
    expect(await up.stop(60_000)).toBe(0);
    const left = await componentPids();
    // Name what outlived the landscape, not just its pid.
    if (left.length > 0) {
      const { stdout } = await run('ps', ['-o', 'pid,ppid,pgid,etime,args', '-p', left.join(',')]).catch(() => ({
        stdout: '(gone)',
      }));
      expect.fail(`processes outlived the landscape:\n${stdout}`);
    }
    // The components were configured with the landscape's port: another one is refused, naming the port to use.
    const otherPort = await run(process.execPath, [cli, 'up', '--data-dir', root, '--port', String(port + 1)]).then(
      () => expect.fail('up with another port was accepted'),
      (err: { code?: number; stderr?: string }) => err,
    );
    expect(otherPort.code).toBe(2);
    expect(otherPort.stderr).toContain(`serves on port ${port}`);
    // SIGTERM while the steps still run (here once the garden's NATS is up) stops every process started so far.
    const early = startProcess(process.execPath, [cli, 'up', '--data-dir', root], { cwd: workspaceRoot() });
    await waitFor('up to reach the NATS step', () => /✓ NATS/.test(early.output()), { timeoutMs: 120_000 });
    expect(await early.stop(60_000)).toBe(143);
    expect(early.output()).toContain('landscape stopped');
    expect(await componentPids(), 'processes outlived a landscape stopped while starting').toEqual([]);
    up = await startLandscape();
    expect(
      await kubectl(kc(), ['-n', 'garden-local', 'get', 'shoot', 'local', '-o', 'jsonpath={.metadata.name}']),
    ).toBe('local');
    expect(
      await kubectl(kc(), ['-n', 'garden', 'get', 'deployments', '-o', 'jsonpath={.items[*].metadata.name}']),
    ).toBe(
      'gardener-admission gardener-controller-manager gardener-resource-manager gardener-scheduler gardenlet nats',
    );
  }, 300_000);

  it('deletes the hibernated shoot: woken far enough to be cleaned, its flow removes it all from the seed, also when the gardenlet is killed (-9) in the middle of it', async () => {
    // Admission refuses hibernation while the HibernationPossible constraint is not True (Gardener's ShootValidator);
    // the first care run after the restart may have found the shoot's API server still starting (Unknown).
    await waitFor(
      'the HibernationPossible constraint to be True again after the restart',
      async () =>
        (await kubectl(kc(), [
          '-n',
          'garden-local',
          'get',
          'shoot',
          'local',
          '-o',
          'jsonpath={.status.constraints[?(@.type=="HibernationPossible")].status}',
        ])) === 'True',
      { timeoutMs: 180_000, intervalMs: 2_000 },
    );
    expect((await shootCli('hibernate', '10m'))?.status?.hibernated).toBe(true);
    // A crash in the middle of the delete flow: the restarted gardenlet takes the deletion up again.
    const { result, killedAt } = await killGardenletDuring('Delete', shootCli('delete', '10m'));
    expect(result).toBeNull();
    expect(killedAt, 'the gardenlet was killed while the delete flow ran').toBeDefined();
    expect(await kubectl(kc(), ['get', 'shoots', '-A', '-o', 'name'])).toBe('');
    await waitFor(
      'the shoot namespace to be gone from the seed',
      async () =>
        (await kubectl(seedKc(), ['get', 'namespace', 'shoot--local--local', '--ignore-not-found', '-o', 'name'])) ===
        '',
      { timeoutMs: 120_000, intervalMs: 2_000 },
    );
    expect(await kubectl(seedKc(), ['get', 'clusters.extensions.gardener.cloud', '-o', 'name'])).toBe('');
    expect(await pidsOf('-m 28222')).toEqual([]);
    // Its BackupEntry follows the deletion after the grace period (0 hours here): gone, and its directory with it.
    await waitFor(
      'the BackupEntry of the shoot to be gone',
      async () => (await kubectl(kc(), ['get', 'backupentries', '-A', '-o', 'name'])) === '',
      { timeoutMs: 120_000, intervalMs: 2_000 },
    );
    const seedUID = await kubectl(kc(), ['get', 'seed', 'local', '-o', 'jsonpath={.metadata.uid}']);
    expect(readdirSync(join(root, 'local-backupbuckets', seedUID))).toEqual([]);
  }, 1_200_000);

  it("registers a shoot as a seed with Gardener's ManagedSeed example: its gardenlet runs on the shoot's node and the Seed becomes ready with provider-local installed; deleting the ManagedSeed removes the Seed", async () => {
    const examples = join(workspaceRoot(), 'deploy/gardener/examples/local/managedseeds');
    const conditionsOf = async (args: string[]) =>
      Object.fromEntries(
        (
          (
            JSON.parse(await kubectl(kc(), [...args, '-o', 'json'])) as {
              status?: { conditions?: { type: string; status: string }[] };
            }
          ).status?.conditions ?? []
        ).map((c) => [c.type, c.status]),
      );
    // In project garden (the landscape creates it, as gardener-operator does), with its own credentials.
    await kubectl(kc(), [
      'apply',
      '-f',
      join(examples, 'credentials.yaml'),
      '-f',
      join(examples, 'shoot-managedseed.yaml'),
    ]);
    // Admission takes a ManagedSeed only for a shoot with a domain, which the shoot gets once it is scheduled (its
    // default domain, as Gardener's ShootDNS assigns it).
    await waitFor(
      'the shoot managedseed to be scheduled and get its domain',
      async () =>
        (await kubectl(kc(), ['-n', 'garden', 'get', 'shoot', 'managedseed', '-o', 'jsonpath={.spec.dns.domain}'])) !==
        '',
      { timeoutMs: 60_000, intervalMs: 1_000 },
    );
    await kubectl(kc(), ['apply', '-f', join(examples, 'managedseed.yaml')]);
    const seedTypes = ['GardenletReady', 'Bootstrapped', 'ExtensionsReady', 'SeedSystemComponentsHealthy'];
    await waitFor(
      `Seed managedseed to report ${seedTypes.join(', ')} True`,
      async () => {
        const conditions = await conditionsOf(['get', 'seed', 'managedseed']).catch(
          () => ({}) as Record<string, string>,
        );
        return seedTypes.every((t) => conditions[t] === 'True');
      },
      { timeoutMs: 600_000, intervalMs: 3_000 },
    ).catch(async (err: Error) => {
      const show = (args: string[]) => kubectl(kc(), args).catch((e: Error) => e.message);
      throw new Error(
        `${err.message}\n${await show(['get', 'shoot', '-n', 'garden', 'managedseed', '-o', 'yaml'])}\n${await show(['get', 'managedseed', '-n', 'garden', 'managedseed', '-o', 'yaml'])}\n${await show(['get', 'seed', 'managedseed', '-o', 'yaml'])}`,
      );
    });
    expect(await conditionsOf(['-n', 'garden', 'get', 'managedseed', 'managedseed'])).toMatchObject({
      ShootReconciled: 'True',
      SeedRegistered: 'True',
    });
    // provider-local is installed into the new seed (it needs the provider's ControlPlane, Infrastructure, Worker).
    const installation = await kubectl(kc(), [
      'get',
      'controllerinstallations',
      '-o',
      'jsonpath={.items[?(@.spec.seedRef.name=="managedseed")].spec.registrationRef.name}',
    ]);
    expect(installation).toBe('provider-local');

    // The gardenlet runs in the shoot, on its node: both replicas Ready, each with an address of its own from the
    // node's pod range (they listen on the same ports), and it reaches the shoot's API server in-cluster with the
    // CA that the shoot's kube-controller-manager publishes (--root-ca-file).
    const shootKc = await writeShootKubeconfig('managedseed', 'garden');
    const pods = JSON.parse(
      await kubectl(shootKc, [
        '-n',
        'garden',
        'get',
        'pods',
        '-l',
        'app.kubernetes.io/instance=gardenlet',
        '-o',
        'json',
      ]),
    ) as {
      items: {
        spec: { nodeName: string };
        status: { podIP: string; conditions?: { type: string; status: string }[] };
      }[];
    };
    const ready = pods.items.filter((p) => p.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
    expect(ready.length).toBe(2);
    expect(new Set(ready.map((p) => p.status.podIP)).size).toBe(2);
    expect(ready.every((p) => p.status.podIP !== '127.0.0.1')).toBe(true);
    const nodes = await kubectl(shootKc, ['get', 'nodes', '-o', 'jsonpath={.items[*].metadata.name}']);
    expect(nodes.split(' ')).toContain(ready[0]!.spec.nodeName);
    const shootCA = (
      JSON.parse(await kubectl(shootKc, ['config', 'view', '--raw', '-o', 'json'])) as {
        clusters: { cluster: { 'certificate-authority-data': string } }[];
      }
    ).clusters[0]!.cluster['certificate-authority-data'];
    const published = await kubectl(shootKc, [
      '-n',
      'garden',
      'get',
      'configmap',
      'kube-root-ca.crt',
      '-o',
      'jsonpath={.data.ca\\.crt}',
    ]);
    expect(Buffer.from(shootCA, 'base64').toString()).toContain(published.trim());

    // Deleting the ManagedSeed deletes the Seed (its gardenlet cleans it up first), then the gardenlet and its namespace.
    await kubectl(kc(), ['-n', 'garden', 'delete', 'managedseed', 'managedseed', '--wait=false']);
    await waitFor(
      'the ManagedSeed and Seed managedseed to be gone',
      async () =>
        (await kubectl(kc(), [
          '-n',
          'garden',
          'get',
          'managedseed',
          'managedseed',
          '--ignore-not-found',
          '-o',
          'name',
        ])) === '' && (await kubectl(kc(), ['get', 'seed', 'managedseed', '--ignore-not-found', '-o', 'name'])) === '',
      { timeoutMs: 300_000, intervalMs: 3_000 },
    );
    expect(await kubectl(shootKc, ['get', 'namespace', 'garden', '--ignore-not-found', '-o', 'name'])).toBe('');
    await kubectl(kc(), [
      '-n',
      'garden',
      'annotate',
      'shoot',
      'managedseed',
      'confirmation.gardener.cloud/deletion=true',
    ]);
    await kubectl(kc(), ['-n', 'garden', 'delete', 'shoot', 'managedseed', '--wait=false']);
    await waitFor(
      'the shoot managedseed to be gone',
      async () => (await kubectl(kc(), ['-n', 'garden', 'get', 'shoots', '-o', 'name'])) === '',
      { timeoutMs: 300_000, intervalMs: 3_000 },
    );
  }, 1_200_000);
});
