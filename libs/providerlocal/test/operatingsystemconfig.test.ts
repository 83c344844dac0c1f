// provider-local's OperatingSystemConfig controller through the extension SDK against the local API server: gardenlet's
// provision OSC (the gardener-node-init unit, node-agent's files, the bootstrap token placeholder, a file from a
// Secret) becomes a cloud-config in Secret osc-result-<name> referenced from status.cloudConfig; a reconcile OSC
// succeeds with no extension units; deleting the OSC removes the Secret.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseManifests } from '@gardener-ts/api';
import { ApiClient, Kinds, Manager, isNotFound, kind } from '@gardener-ts/controller-runtime';
import type { ExtensionObject } from '@gardener-ts/extensions';
import { clusterObject, extensionResource } from '@gardener-ts/extensions/testing';
import { gardenerAsset, startTestEnvironment, waitFor, type TestEnvironment } from '@gardener-ts/testing';
import { addOperatingSystemConfigController } from '../src/controller/operatingsystemconfig/add.js';

const crd = (plural: string) => gardenerAsset('crds', `10-crd-extensions.gardener.cloud_${plural}.yaml`);
const example = (...path: string[]) =>
  parseManifests(readFileSync(gardenerAsset('examples', ...path), 'utf8'))[0] as Record<string, any>;
const OSCKind = kind<ExtensionObject>('extensions.gardener.cloud/v1alpha1', 'OperatingSystemConfig');
const namespace = 'shoot--local--osc';

let env: TestEnvironment;
let client: ApiClient;
let mgr: Manager;

beforeAll(async () => {
  env = await startTestEnvironment({ crds: [crd('clusters'), crd('operatingsystemconfigs')] });
  client = await ApiClient.create(env.kubeconfigPath);
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  const shoot = {
    ...example('local', 'shoot.yaml'),
    status: {
      lastOperation: {
        type: 'Reconcile',
        state: 'Processing',
        progress: 10,
        description: '',
        lastUpdateTime: '2026-01-01T00:00:00Z',
      },
    },
  };
  await client.create(
    clusterObject(namespace, {
      shoot,
      seed: example('50-seed.yaml'),
      cloudProfile: example('local', 'cloudprofile.yaml'),
    }),
  );
  mgr = await Manager.create({ clusters: { seed: { kubeConfig: env.kubeconfigPath } }, gracefulShutdownTimeoutMs: 0 });
  addOperatingSystemConfigController(mgr);
  await mgr.start();
}, 60_000);

afterAll(async () => {
  await mgr?.stop();
  client?.close();
  await env?.stop();
});

const succeeded = (name: string) =>
  waitFor(`OSC ${name} to succeed`, async () => {
    const osc = await client.get(OSCKind, { namespace, name });
    return osc.status?.lastOperation?.state === 'Succeeded' ? osc : undefined;
  });

describe('the OperatingSystemConfig controller', () => {
  it('renders the user data of a provision OSC into osc-result-<name>', async () => {
    await client.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'node-agent-kubeconfig', namespace },
      stringData: { kubeconfig: 'apiVersion: v1\nkind: Config\n' },
    });
    await client.create(
      extensionResource('OperatingSystemConfig', namespace, 'worker-z1-provision', {
        type: 'local',
        purpose: 'provision',
        units: [
          {
            name: 'gardener-node-init.service',
            command: 'start',
            enable: true,
            content:
              '[Unit]\nDescription=Downloads the gardener-node-agent binary\n[Service]\nType=oneshot\nExecStart=/var/lib/gardener-node-agent/init.sh\n',
          },
        ],
        files: [
          {
            path: '/var/lib/gardener-node-agent/credentials/bootstrap-token',
            permissions: 0o640,
            content: { inline: { encoding: '', data: '<<BOOTSTRAP_TOKEN>>' }, transmitUnencoded: true },
          },
          {
            path: '/var/lib/gardener-node-agent/init.sh',
            permissions: 0o755,
            content: {
              inline: {
                encoding: 'b64',
                data: Buffer.from('#!/bin/bash\nexec gardener-node-agent bootstrap\n').toString('base64'),
              },
            },
          },
          {
            path: '/var/lib/gardener-node-agent/credentials/kubeconfig',
            permissions: 0o600,
            content: { secretRef: { name: 'node-agent-kubeconfig', dataKey: 'kubeconfig' } },
          },
        ],
      }),
    );
    const osc = await succeeded('worker-z1-provision');
    expect(osc.status?.cloudConfig).toEqual({ secretRef: { name: 'osc-result-worker-z1-provision', namespace } });
    const secret = await client.get(Kinds.Secret, { namespace, name: 'osc-result-worker-z1-provision' });
    expect(secret.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: 'OperatingSystemConfig',
      name: 'worker-z1-provision',
      controller: true,
    });
    const userData = Buffer.from(secret.data!.cloud_config!, 'base64').toString('utf8');
    expect(userData).toMatch(/^#cloud-config\n/);
    const doc = parse(userData);
    expect(doc.write_files.map((f: { path: string }) => f.path)).toEqual([
      '/var/lib/gardener-node-agent/credentials/bootstrap-token',
      '/var/lib/gardener-node-agent/init.sh',
      '/var/lib/gardener-node-agent/credentials/kubeconfig',
      '/etc/systemd/system/gardener-node-init.service',
    ]);
    expect(doc.write_files[0].content).toBe('<<BOOTSTRAP_TOKEN>>');
    expect(Buffer.from(doc.write_files[2].content, 'base64').toString()).toBe('apiVersion: v1\nkind: Config\n');
    expect(doc.runcmd).toContain("systemctl start 'gardener-node-init.service'");

    await client.delete(OSCKind, { namespace, name: 'worker-z1-provision' });
    await waitFor('the user data Secret to go', async () =>
      client.get(Kinds.Secret, { namespace, name: 'osc-result-worker-z1-provision' }).then(
        () => undefined,
        (err: unknown) => (isNotFound(err) ? true : Promise.reject(err)),
      ),
    );
  });

  it('reports a file from a missing Secret as an error, and accepts a reconcile OSC as it is', async () => {
    await client.create(
      extensionResource('OperatingSystemConfig', namespace, 'broken-provision', {
        type: 'local',
        purpose: 'provision',
        files: [{ path: '/etc/x', content: { secretRef: { name: 'missing', dataKey: 'x' } } }],
      }),
    );
    const broken = await waitFor('the broken OSC to report an error', async () => {
      const osc = await client.get(OSCKind, { namespace, name: 'broken-provision' });
      return osc.status?.lastError ? osc : undefined;
    });
    expect(broken.status?.lastError?.description).toContain(
      `key x of Secret ${namespace}/missing (content.secretRef) not found`,
    );

    await client.create(
      extensionResource('OperatingSystemConfig', namespace, 'worker-z1-reconcile', {
        type: 'local',
        purpose: 'reconcile',
        units: [
          {
            name: 'kubelet.service',
            command: 'start',
            enable: true,
            content: '[Service]\nExecStart=/opt/bin/kubelet\n',
          },
        ],
      }),
    );
    const osc = await succeeded('worker-z1-reconcile');
    expect(osc.status?.cloudConfig).toBeUndefined();
  });
});
