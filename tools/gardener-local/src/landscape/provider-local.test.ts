import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { workspaceRoot } from '@gardener-ts/testing';
import {
  BACKUP_BUCKETS_MOUNT_PATH,
  deploymentPolicy,
  installationState,
  providerLocalControllerDeployment,
  type InstallationObject,
} from './provider-local.js';

const installation = (
  name: string,
  registration: string,
  seed: string,
  conditions: Record<string, string> = {},
  deleting = false,
): InstallationObject => ({
  metadata: { name, ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
  spec: { registrationRef: { name: registration }, seedRef: { name: seed } },
  status: { conditions: Object.entries(conditions).map(([type, status]) => ({ type, status, reason: 'R' })) },
});

describe('providerLocalControllerDeployment', () => {
  it('is a core.gardener.cloud/v1 ControllerDeployment with the chart inline and the backup buckets in the landscape', () => {
    const archive = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xff, 0x00]);
    const deployment = providerLocalControllerDeployment({ rawChart: archive, backupBucketsDir: '/data/land/buckets' });
    expect(deployment).toMatchObject({
      apiVersion: 'core.gardener.cloud/v1',
      kind: 'ControllerDeployment',
      metadata: { name: 'provider-local' },
    });
    const helm = deployment.helm as { rawChart: string; values: Record<string, unknown> };
    expect(Buffer.from(helm.rawChart, 'base64')).toEqual(archive);
    expect(helm.values).toEqual({
      extraVolumes: [{ name: 'backup-buckets', hostPath: { path: '/data/land/buckets', type: 'DirectoryOrCreate' } }],
    });
    const withImage = providerLocalControllerDeployment({
      rawChart: archive,
      backupBucketsDir: '/b',
      image: { repository: 'registry.example/pl', tag: 'v2' },
    });
    expect((withImage.helm as { values: { image: unknown } }).values.image).toEqual({
      repository: 'registry.example/pl',
      tag: 'v2',
    });
  });

  it('round-trips any archive through base64', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), (bytes) => {
        const d = providerLocalControllerDeployment({ rawChart: Buffer.from(bytes), backupBucketsDir: '/b' });
        expect(Buffer.from((d.helm as { rawChart: string }).rawChart, 'base64')).toEqual(Buffer.from(bytes));
      }),
    );
  });
});

describe('installationState', () => {
  it("finds the registration's installation on the seed and says what is missing", () => {
    const list = [
      installation('provider-local-other', 'provider-local', 'other', { Installed: 'True', Healthy: 'True' }),
      installation('networking-abc', 'networking', 'local', { Installed: 'True', Healthy: 'True' }),
      installation('provider-local-old', 'provider-local', 'local', { Installed: 'True', Healthy: 'True' }, true),
      installation('provider-local-x1y2z', 'provider-local', 'local', { Installed: 'True', Healthy: 'False' }),
    ];
    expect(installationState(list, 'provider-local', 'local')).toEqual({
      name: 'provider-local-x1y2z',
      ready: false,
      detail: 'ControllerInstallation provider-local-x1y2z: Healthy=False (R)',
    });
    expect(installationState([], 'provider-local', 'local')).toEqual({
      ready: false,
      detail: 'no ControllerInstallation of provider-local for seed local',
    });
    expect(installationState([installation('p-1', 'provider-local', 'local')], 'provider-local', 'local').detail).toBe(
      'ControllerInstallation p-1: Installed not reported, Healthy not reported',
    );
  });

  it('is ready exactly when every wanted condition of the matching installation is True', () => {
    const status = fc.constantFrom('True', 'False', 'Unknown', undefined);
    fc.assert(
      fc.property(status, status, status, (installed, healthy, progressing) => {
        const conditions = Object.fromEntries(
          Object.entries({ Installed: installed, Healthy: healthy, Progressing: progressing }).filter(
            ([, v]) => v !== undefined,
          ),
        ) as Record<string, string>;
        const state = installationState(
          [installation('pl', 'provider-local', 'local', conditions)],
          'provider-local',
          'local',
        );
        expect(state.ready).toBe(installed === 'True' && healthy === 'True');
        expect(state.name).toBe('pl');
      }),
    );
  });
});

describe('deploymentPolicy', () => {
  it("reads the registration's policy, Gardener's OnDemand by default", () => {
    expect(deploymentPolicy({ spec: { deployment: { policy: 'Always' } } })).toBe('Always');
    expect(deploymentPolicy({ spec: {} })).toBe('OnDemand');
  });
});

// The chart as the ControllerInstallation installs it: packaged as the step packages it, rendered from the archive
// with the ControllerDeployment's values and Gardener's `gardener` block, as the gardenlet renders it.
describe('the packaged provider-local chart', () => {
  const run = promisify(execFile);
  const root = workspaceRoot();
  const helmBinary = join(root, 'tools/k8s-binaries/vendor/helm');
  const chart = join(root, 'deploy/charts/provider-local');
  let dir: string;
  type Manifest = { kind: string; metadata: { name: string; namespace?: string } } & Record<string, any>;
  let manifests: Manifest[];
  let archive: Buffer;

  const helm = async (args: string[]) =>
    (
      await run(helmBinary, args, {
        env: {
          ...process.env,
          HELM_CACHE_HOME: join(dir, 'cache'),
          HELM_CONFIG_HOME: join(dir, 'config'),
          HELM_DATA_HOME: join(dir, 'data'),
        },
      })
    ).stdout;
  const packageChart = async (destination: string) => {
    await helm(['dependency', 'build', chart]);
    const out = await helm(['package', chart, '--destination', destination]);
    return readFile(/saved it to: (.+\.tgz)/.exec(out)![1]!.trim());
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'provider-local-chart-'));
    archive = await packageChart(join(dir, 'a'));
    const deployment = providerLocalControllerDeployment({ rawChart: archive, backupBucketsDir: '/land/buckets' });
    const values = {
      ...(deployment.helm as { values: Record<string, unknown> }).values,
      gardener: { version: '1.0.0', seed: { name: 'local', spec: { provider: { type: 'local' } } } },
    };
    await writeFile(join(dir, 'chart.tgz'), archive);
    await writeFile(join(dir, 'values.json'), JSON.stringify(values));
    const text = await helm([
      'template',
      'provider-local',
      join(dir, 'chart.tgz'),
      '--namespace',
      'extension-provider-local-x1y2z',
      '--values',
      join(dir, 'values.json'),
    ]);
    manifests = parseAllDocuments(text)
      .map((d) => d.toJS() as Manifest | null)
      .filter((m): m is Manifest => !!m);
  }, 60_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('packages reproducibly, without the registration', async () => {
    expect(await packageChart(join(dir, 'b'))).toEqual(archive);
    const { stdout } = await run('tar', ['-tzf', join(dir, 'chart.tgz')]);
    expect(stdout).toContain('provider-local/Chart.yaml');
    expect(stdout).toContain('provider-local/charts/gardener-ts-lib/');
    expect(stdout).not.toContain('registration');
  });

  it('runs gardener-ts/provider-local in the extension namespace with its namespace and the backup buckets', () => {
    const deployment = manifests.find((m) => m.kind === 'Deployment')!;
    expect(deployment.metadata.namespace).toBe('extension-provider-local-x1y2z');
    const pod = deployment.spec.template.spec;
    const container = pod.containers[0];
    expect(container.image).toMatch(/^gardener-ts\/provider-local:/);
    expect(container.env).toEqual([
      { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      { name: 'LOCAL_BACKUPBUCKET_DIR', value: BACKUP_BUCKETS_MOUNT_PATH },
    ]);
    expect(pod.volumes).toContainEqual({
      name: 'backup-buckets',
      hostPath: { path: '/land/buckets', type: 'DirectoryOrCreate' },
    });
    expect(container.volumeMounts).toContainEqual({ name: 'backup-buckets', mountPath: BACKUP_BUCKETS_MOUNT_PATH });
  });

  it('grants what provider-local reconciles: extension kinds, machines, Secrets, Pods, NetworkPolicies, Leases', () => {
    const role = manifests.find((m) => m.kind === 'ClusterRole')!;
    const binding = manifests.find((m) => m.kind === 'ClusterRoleBinding')!;
    const sa = manifests.find((m) => m.kind === 'ServiceAccount')!;
    expect(binding.subjects).toEqual([
      { kind: 'ServiceAccount', name: sa.metadata.name, namespace: 'extension-provider-local-x1y2z' },
    ]);
    const verbs = (group: string, resource: string) =>
      (role.rules as { apiGroups: string[]; resources: string[]; verbs: string[] }[])
        .filter((r) => r.apiGroups.includes(group) && (r.resources.includes(resource) || r.resources.includes('*')))
        .flatMap((r) => r.verbs);
    for (const [group, resource] of [
      ['extensions.gardener.cloud', 'workers'],
      ['extensions.gardener.cloud', 'clusters'],
      ['resources.gardener.cloud', 'managedresources'],
      ['machine.sapcloud.io', 'machines'],
      ['', 'secrets'],
      ['', 'pods'],
      ['networking.k8s.io', 'networkpolicies'],
    ]) {
      expect(verbs(group!, resource!), `${group}/${resource}`).toContain('*');
    }
    expect(verbs('coordination.k8s.io', 'leases')).toEqual(
      expect.arrayContaining(['get', 'watch', 'create', 'update']),
    );
    expect(verbs('', 'nodes')).toEqual(expect.arrayContaining(['get', 'list', 'watch']));
  });
});
