// The provider-local chart's webhook port and leader election, rendered with the real helm: the container port
// `webhooks` follows the configuration's server.webhooks.port, the shipped configuration campaigns for Gardener's
// Lease in the Pod's namespace, and the ServiceAccount may write Leases there.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseComponentConfig, providerLocalConfigSpec } from '@gardener-ts/component-config';
import { workspaceRoot } from '@gardener-ts/testing';

const run = promisify(execFile);
const root = workspaceRoot();
const helmBinary = join(root, 'tools', 'k8s-binaries', 'vendor', 'helm');
const helmHome = mkdtempSync(join(tmpdir(), 'gardener-ts-helm-provider-local-'));
const chart = join('deploy', 'charts', 'provider-local');
const env = {
  ...process.env,
  HELM_CACHE_HOME: join(helmHome, 'cache'),
  HELM_CONFIG_HOME: join(helmHome, 'config'),
  HELM_DATA_HOME: join(helmHome, 'data'),
};

type Manifest = { apiVersion: string; kind: string; metadata: { name: string }; [key: string]: any };

async function render(...args: string[]): Promise<Manifest[]> {
  try {
    const { stdout } = await run(helmBinary, ['template', 't', chart, '--namespace', 'extension-x', ...args], {
      cwd: root,
      env,
      maxBuffer: 16 * 1024 * 1024,
    });
    return parseAllDocuments(stdout)
      .filter((d) => d.contents !== null)
      .map((d) => d.toJS() as Manifest);
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(e.stderr || e.message);
  }
}

const one = (manifests: Manifest[], kind: string) => manifests.find((m) => m.kind === kind)!;
const container = (manifests: Manifest[]) => one(manifests, 'Deployment').spec.template.spec.containers[0];

let defaults: Manifest[];

beforeAll(async () => {
  await run(helmBinary, ['dependency', 'build', chart], { cwd: root, env });
  defaults = await render();
}, 120_000);

afterAll(() => rmSync(helmHome, { recursive: true, force: true }));

describe('chart provider-local: webhook port and leader election', () => {
  it('ships leader election on the Lease provider-local-leader-election of the Pod namespace', () => {
    const text = one(defaults, 'ConfigMap').data['config.yaml'] as string;
    const { config, ignoredFields } = parseComponentConfig(providerLocalConfigSpec, text);
    expect(ignoredFields).toEqual([]);
    expect(config.leaderElection).toMatchObject({
      leaderElect: true,
      resourceName: 'provider-local-leader-election',
      resourceNamespace: '',
    });
    expect(config.server.webhooks.port).toBe(9443);
    expect(container(defaults).env).toContainEqual({
      name: 'POD_NAMESPACE',
      valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } },
    });
    const leases = one(defaults, 'ClusterRole').rules.find((r: any) => r.resources.includes('leases'));
    expect(leases.verbs).toEqual(expect.arrayContaining(['get', 'create', 'update']));
  });

  it('opens the container port of the configured webhook port, which the Service targets', async () => {
    const manifests = await render('--set', 'config.server.webhooks.port=10443');
    expect(container(manifests).ports).toContainEqual({ name: 'webhooks', containerPort: 10443, protocol: 'TCP' });
    expect(one(manifests, 'Service').spec.ports).toContainEqual(
      expect.objectContaining({ name: 'webhooks', port: 443, targetPort: 'webhooks' }),
    );
    const { config } = parseComponentConfig(providerLocalConfigSpec, one(manifests, 'ConfigMap').data['config.yaml']);
    expect(config.server.webhooks.port).toBe(10443);
  });

  it('refuses a configuration without a webhook port', async () => {
    await expect(render('--set', 'config.server.webhooks=null')).rejects.toThrow(
      /config\.server\.webhooks\.port must be set/,
    );
  });
});
