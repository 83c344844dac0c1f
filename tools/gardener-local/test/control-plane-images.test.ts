// A shoot's kube-controller-manager and kube-scheduler as Gardener deploys them into the seed — Deployments of the
// upstream images (registry.k8s.io/kube-controller-manager, kube-scheduler) with Gardener's flags, the generic token
// kubeconfig and the shoot access token in one projected volume, the scheduler's configuration in a ConfigMap, their
// serving certificates, HTTPS liveness probes — run by a local cluster (`gardener-local cluster up`, the built CLI):
// the built-in image map runs them as `gardener-local controller-manager|scheduler` with their flags translated, and
// they drive the shoot's API server (a separate local API server): a Deployment applied there gets its ReplicaSet and
// Pods, and they are bound to the shoot's Node.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { kubectl, startTestCluster, waitFor, type TestCluster } from '@gardener-ts/testing';
import { clusterCommand } from './support.js';

const namespace = 'shoot--local--local';
const kubeconfigDir = '/var/run/secrets/gardener.cloud/shoot/generic-kubeconfig';
let dir: string;
let clusters: string;
let shoot: TestCluster;
let seed: string;

const inShoot = async (...args: string[]) => JSON.parse(await kubectl(shoot.kubeconfigPath, [...args, '-o', 'json']));

/** ServiceAccount kube-system/<name> of the shoot bound to `clusterRole`, and a token for it. */
async function shootAccessToken(name: string, clusterRole: string): Promise<string> {
  await kubectl(shoot.kubeconfigPath, ['create', 'serviceaccount', name, '-n', 'kube-system']);
  // Gardener binds kube-scheduler's ServiceAccount to system:volume-scheduler too (`gardener.cloud:target:<name>-volume`).
  for (const [suffix, role] of [
    ['', clusterRole],
    ...(name === 'kube-scheduler' ? [['-volume', 'system:volume-scheduler']] : []),
  ]) {
    await kubectl(shoot.kubeconfigPath, [
      ...['create', 'clusterrolebinding', `gardener.cloud:target:${name}${suffix}`],
      ...['--clusterrole', role!, '--serviceaccount', `kube-system:${name}`],
    ]);
  }
  return (await kubectl(shoot.kubeconfigPath, ['create', 'token', name, '-n', 'kube-system'])).trim();
}

/** A control plane Deployment as Gardener renders it (pkg/component/kubernetes/{controllermanager,scheduler}). */
function controlPlaneDeployment(name: string, image: string, port: number, args: string[], volumes: object[]) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'kubernetes', role: name } },
      template: {
        metadata: { labels: { app: 'kubernetes', role: name } },
        spec: {
          automountServiceAccountToken: false,
          terminationGracePeriodSeconds: 5,
          containers: [
            {
              name,
              image,
              command: [`/usr/local/bin/${name}`],
              args,
              ports: [{ name: 'metrics', containerPort: port }],
              livenessProbe: {
                httpGet: { scheme: 'HTTPS', path: '/healthz', port },
                periodSeconds: 2,
                failureThreshold: 2,
              },
              readinessProbe: { httpGet: { scheme: 'HTTPS', path: '/healthz', port }, periodSeconds: 1 },
              volumeMounts: [
                { name: 'kubeconfig', mountPath: kubeconfigDir, readOnly: true },
                { name: 'server', mountPath: `/var/lib/${name}-server`, readOnly: true },
                ...volumes.map((v) => (v as { mount: object }).mount),
              ],
            },
          ],
          volumes: [
            {
              name: 'kubeconfig',
              projected: {
                defaultMode: 0o420,
                sources: [
                  { secret: { name: 'generic-token-kubeconfig', items: [{ key: 'kubeconfig', path: 'kubeconfig' }] } },
                  { secret: { name: `shoot-access-${name}`, items: [{ key: 'token', path: 'token' }] } },
                ],
              },
            },
            { name: 'server', secret: { secretName: `${name}-server`, defaultMode: 0o640 } },
            ...volumes.map((v) => (v as { volume: object }).volume),
          ],
        },
      },
    },
  };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gardener-local-control-plane-'));
  clusters = join(dir, 'clusters');
  shoot = await startTestCluster();
  await promisify(execFile)('openssl', [
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'],
    ...['-subj', '/CN=control-plane', '-keyout', join(dir, 'tls.key'), '-out', join(dir, 'tls.crt')],
  ]);
  expect(await clusterCommand(clusters, 'up', 'seed')).toContain('is ready');
  seed = join(clusters, 'seed', 'kubeconfig');
}, 120_000);

afterAll(async () => {
  if (clusters) await clusterCommand(clusters, 'down', 'seed').catch(() => undefined);
  await shoot?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

describe("a shoot's kube-controller-manager and kube-scheduler Pods in local mode", () => {
  it('run from their upstream images and drive the shoot API server', async () => {
    // The generic token kubeconfig: the shoot API server, its CA, the token file next to it.
    const shootCluster = parse(await readFile(shoot.kubeconfigPath, 'utf8')).clusters[0].cluster;
    const genericKubeconfig = stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: namespace, cluster: shootCluster }],
      users: [{ name: 'shoot-access', user: { tokenFile: `${kubeconfigDir}/token` } }],
      contexts: [{ name: namespace, context: { cluster: namespace, user: 'shoot-access' } }],
      'current-context': namespace,
    });
    const tls = {
      'tls.crt': await readFile(join(dir, 'tls.crt'), 'utf8'),
      'tls.key': await readFile(join(dir, 'tls.key'), 'utf8'),
    };
    const secret = (name: string, stringData: Record<string, string>) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name, namespace },
      stringData,
    });
    const kubeconfig = `${kubeconfigDir}/kubeconfig`;
    const objects = [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
      secret('generic-token-kubeconfig', { kubeconfig: genericKubeconfig }),
      secret('shoot-access-kube-controller-manager', {
        token: await shootAccessToken('kube-controller-manager', 'system:kube-controller-manager'),
      }),
      secret('shoot-access-kube-scheduler', {
        token: await shootAccessToken('kube-scheduler', 'system:kube-scheduler'),
      }),
      secret('kube-controller-manager-server', tls),
      secret('kube-scheduler-server', tls),
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'kube-scheduler-config', namespace },
        data: {
          'config.yaml': stringify({
            apiVersion: 'kubescheduler.config.k8s.io/v1',
            kind: 'KubeSchedulerConfiguration',
            clientConnection: { kubeconfig },
            leaderElection: { leaderElect: true },
          }),
        },
      },
      controlPlaneDeployment(
        'kube-controller-manager',
        'registry.k8s.io/kube-controller-manager:v1.33.0',
        10257,
        [
          '--allocate-node-cidrs=true',
          '--cluster-cidr=10.3.0.0/16',
          `--authentication-kubeconfig=${kubeconfig}`,
          `--authorization-kubeconfig=${kubeconfig}`,
          `--kubeconfig=${kubeconfig}`,
          `--cluster-name=${namespace}`,
          '--controllers=*,bootstrapsigner,tokencleaner',
          '--leader-elect=true',
          '--node-monitor-grace-period=40s',
          '--secure-port=10257',
          '--service-cluster-ip-range=10.4.0.0/16',
          '--tls-cert-file=/var/lib/kube-controller-manager-server/tls.crt',
          '--tls-private-key-file=/var/lib/kube-controller-manager-server/tls.key',
          '--use-service-account-credentials=true',
          '--v=2',
        ],
        [],
      ),
      controlPlaneDeployment(
        'kube-scheduler',
        'registry.k8s.io/kube-scheduler:v1.33.0',
        10259,
        [
          '--config=/var/lib/kube-scheduler-config/config.yaml',
          `--authentication-kubeconfig=${kubeconfig}`,
          `--authorization-kubeconfig=${kubeconfig}`,
          '--secure-port=10259',
          '--tls-cert-file=/var/lib/kube-scheduler-server/tls.crt',
          '--tls-private-key-file=/var/lib/kube-scheduler-server/tls.key',
          '--v=2',
        ],
        [
          {
            volume: { name: 'config', configMap: { name: 'kube-scheduler-config' } },
            mount: { name: 'config', mountPath: '/var/lib/kube-scheduler-config', readOnly: true },
          },
        ],
      ),
    ];
    await kubectl(seed, ['apply', '-f', '-'], { input: objects.map((o) => stringify(o)).join('---\n') });
    for (const name of ['kube-controller-manager', 'kube-scheduler'])
      await kubectl(seed, ['rollout', 'status', `deployment/${name}`, '-n', namespace, '--timeout=60s'], {
        timeoutMs: 70_000,
      });

    // Both lead on the shoot's Leases.
    for (const name of ['kube-controller-manager', 'kube-scheduler']) {
      const lease = await waitFor(`the ${name} Lease`, () => inShoot('get', 'lease', '-n', 'kube-system', name), {
        timeoutMs: 30_000,
      });
      expect(lease.spec.holderIdentity, name).toBeTruthy();
    }

    await kubectl(shoot.kubeconfigPath, [
      'create',
      'deployment',
      'web',
      '--image',
      'example.com/hello:v1',
      '--replicas',
      '2',
    ]);
    await kubectl(shoot.kubeconfigPath, ['create', '-f', '-'], {
      input: 'apiVersion: v1\nkind: Node\nmetadata: { name: node-a }\n',
    });
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const resources = { cpu: '4', memory: '8Gi', pods: '110' };
    await kubectl(shoot.kubeconfigPath, [
      ...['patch', 'node', 'node-a', '--subresource', 'status', '--type', 'merge', '-p'],
      JSON.stringify({
        status: {
          capacity: resources,
          allocatable: resources,
          conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: now, lastTransitionTime: now }],
        },
      }),
    ]);
    const pods = await waitFor(
      "the Deployment's Pods bound to node-a",
      async () => {
        const items: { spec: { nodeName?: string } }[] = (await inShoot('get', 'pods', '-l', 'app=web')).items;
        return items.length === 2 && items.every((p) => p.spec.nodeName === 'node-a') ? items : undefined;
      },
      { timeoutMs: 45_000 },
    );
    expect(pods).toHaveLength(2);
  }, 240_000);
});
