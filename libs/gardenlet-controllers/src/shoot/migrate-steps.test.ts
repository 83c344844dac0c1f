// The migration's steps against the local API server with Gardener's extension CRDs and the garden's ShootState: in
// the source namespace every extension resource is asked to migrate, the test plays the extensions as the SDK's generic
// reconciler answers `migrate` (annotation removed, lastOperation Migrate Succeeded, finalizer released), the ShootState
// is written from the persisted secrets, the extension states and what they reference, and the migrated resources are
// deleted without their extension's help. In the destination namespace the restore creates the persisted secrets and
// writes each extension resource with `wait-for-state`, its state and referenced objects, then asks for `restore`.
// And the request for etcd's final full snapshot, against an HTTPS stand-in of the backup-restore sidecar.
import { generatedCRDs } from '@gardener-ts/api';
import { ApiClient, SecretKind, isNotFound, kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { startTestEnvironment, type TestEnvironment } from '@gardener-ts/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOperation, extensionCRD } from '../../test/support/extensions.js';
import { exampleShoot } from '../component/testdata/fixtures.js';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MigrateSteps, isMigrated, requestFinalSnapshot } from './migrate-steps.js';
import { restorePersistedSecrets, restoringSeedClient } from './shootstate-restore.js';
import { ShootStateKind, deleteShootState, deployShootState, readShootState } from './shootstate-writer.js';

const source = 'shoot--local--source';
const destination = 'shoot--local--destination';
const ext = (kindName: string) =>
  kind<KubernetesObject & { status?: Record<string, unknown> }>('extensions.gardener.cloud/v1alpha1', kindName);
const shoot = exampleShoot((s) => (s.metadata = { ...s.metadata, namespace: 'garden-local', name: 'local' }));

let env: TestEnvironment;
let client: ApiClient;

const secret = (name: string, labels: Record<string, string>, data: Record<string, string>) =>
  client.create({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: source, labels },
    data,
  } as KubernetesObject);

async function extensionResource(kindName: string, name: string, status: Record<string, unknown>) {
  const created = await client.create({
    apiVersion: 'extensions.gardener.cloud/v1alpha1',
    kind: kindName,
    metadata: { name, namespace: source, finalizers: ['extensions.gardener.cloud/test'] },
    spec:
      kindName === 'Infrastructure'
        ? { type: 'local', region: 'local', secretRef: { name: 'cloudprovider', namespace: source } }
        : kindName === 'Worker'
          ? {
              type: 'local',
              region: 'local',
              secretRef: { name: 'cloudprovider', namespace: source },
              infrastructureProviderStatus: {},
              pools: [],
            }
          : { type: 'local', podCIDR: '10.3.0.0/16', serviceCIDR: '10.4.0.0/16' },
  } as KubernetesObject);
  await client.updateStatus({
    ...created,
    status: {
      lastOperation: {
        type: 'Reconcile',
        state: 'Succeeded',
        progress: 100,
        description: 'ok',
        lastUpdateTime: new Date().toISOString(),
      },
      ...status,
    },
  } as KubernetesObject);
}

/** The extensions' answer to `migrate`, as the SDK's generic reconciler gives it. */
async function playExtensionsMigrate(kinds: string[]): Promise<number> {
  let migrated = 0;
  for (const kindName of kinds) {
    for (const obj of (await client.list(ext(kindName), { namespace: source })).items) {
      if (obj.metadata?.annotations?.['gardener.cloud/operation'] !== 'migrate') continue;
      await answerOperation(client, obj, { type: 'Migrate', releaseFinalizers: true });
      migrated++;
    }
  }
  return migrated;
}

beforeAll(async () => {
  env = await startTestEnvironment({
    crds: [
      ...generatedCRDs().filter((c) => c.spec.names.kind === 'ShootState'),
      extensionCRD('infrastructures'),
      extensionCRD('workers'),
      extensionCRD('extensions'),
      extensionCRD('networks'),
      extensionCRD('controlplanes'),
      extensionCRD('operatingsystemconfigs'),
      extensionCRD('containerruntimes'),
      extensionCRD('dnsrecords'),
    ],
  });
  client = await ApiClient.create(env.kubeconfigPath);
  for (const name of [source, destination, 'garden-local'])
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } } as KubernetesObject);
}, 60_000);

afterAll(async () => {
  client?.close();
  await env?.stop();
});

describe('control plane migration against the API server', () => {
  it('migrates, persists the ShootState, deletes without the extensions, and restores from it', async () => {
    const persisted = { 'managed-by': 'secrets-manager', 'manager-identity': 'gardenlet', name: 'ca', persist: 'true' };
    await secret('ca-a1b2c3', persisted, { 'ca.crt': 'Q0E=', 'ca.key': 'S0VZ' });
    await secret(
      'kube-apiserver-d4e5',
      { 'managed-by': 'secrets-manager', name: 'kube-apiserver' },
      { 'tls.crt': 'eA==' },
    );
    await client.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'infra-terraform-state', namespace: source, labels: { role: 'state' } },
      data: { tfstate: 'c3RhdGU=' },
    } as KubernetesObject);
    const infraStatus = {
      state: { vpcID: 'vpc-1', subnets: ['a', 'b'] },
      resources: [
        { name: 'tfstate', resourceRef: { apiVersion: 'v1', kind: 'Secret', name: 'infra-terraform-state' } },
      ],
    };
    await extensionResource('Infrastructure', 'local', infraStatus);
    await extensionResource('Worker', 'local', { state: { machines: { 'pool-a': 2 } } });
    await extensionResource('Network', 'local', {});

    const steps = new MigrateSteps(client, source, { wait: { interval: 50, timeout: 10_000 } });
    const signal = new AbortController().signal;
    const kinds = ['Infrastructure', 'Worker', 'Network'];
    await steps.migrate(kinds);
    for (const kindName of kinds) {
      const obj = await client.get(ext(kindName), { namespace: source, name: 'local' });
      expect(obj.metadata?.annotations?.['gardener.cloud/operation']).toBe('migrate');
      expect(obj.metadata?.annotations?.['gardener.cloud/timestamp']).toBeDefined();
    }
    // Not migrated yet: the wait names what it waits for when it gives up.
    await expect(
      new MigrateSteps(client, source, { wait: { interval: 20, timeout: 100 } }).waitUntilMigrated(['Worker'], signal),
    ).rejects.toThrow(/Worker shoot--local--source\/local is not migrated yet \(last operation Reconcile Succeeded/);
    expect(await playExtensionsMigrate(kinds)).toBe(3);
    await steps.waitUntilMigrated(kinds, signal);

    const written = await deployShootState(client, client, shoot, source, new Date('2026-11-29T12:00:00Z'));
    expect(written.metadata?.annotations?.['gardener.cloud/timestamp']).toBe('2026-11-29T12:00:00Z');
    const state = await readShootState(client, shoot);
    expect(state?.spec.gardener).toEqual([
      { name: 'ca-a1b2c3', type: 'secret', labels: persisted, data: { 'ca.crt': 'Q0E=', 'ca.key': 'S0VZ' } },
    ]);
    expect(state?.spec.extensions).toEqual([
      { kind: 'Infrastructure', name: 'local', ...infraStatus },
      { kind: 'Worker', name: 'local', state: { machines: { 'pool-a': 2 } } },
    ]);
    expect(state?.spec.resources).toEqual([
      {
        ref: { apiVersion: 'v1', kind: 'Secret', name: 'infra-terraform-state' },
        data: {
          apiVersion: 'v1',
          kind: 'Secret',
          type: 'Opaque',
          metadata: { name: 'infra-terraform-state', labels: { role: 'state' } },
          data: { tfstate: 'c3RhdGU=' },
        },
      },
    ]);

    // The migrated resources go at once: their extensions released them (`migrate` is "forget", not "delete").
    await steps.destroy(kinds);
    await steps.waitUntilDeleted(kinds, signal);
    for (const kindName of kinds) {
      await expect(client.get(ext(kindName), { namespace: source, name: 'local' })).rejects.toSatisfy(isNotFound);
    }

    // The destination: the persisted secrets first (the secrets manager adopts them), then the restore sequence.
    expect(await restorePersistedSecrets(client, state?.spec, destination)).toBe(1);
    expect(await restorePersistedSecrets(client, state?.spec, destination)).toBe(1);
    const ca = await client.get(SecretKind, { namespace: destination, name: 'ca-a1b2c3' });
    expect(ca.data).toEqual({ 'ca.crt': 'Q0E=', 'ca.key': 'S0VZ' });
    expect(ca.metadata?.labels).toEqual(persisted);
    expect(ca.immutable).toBe(true);
    await expect(client.get(SecretKind, { namespace: destination, name: 'kube-apiserver-d4e5' })).rejects.toSatisfy(
      isNotFound,
    );

    const restoring = restoringSeedClient(client, state?.spec);
    const infrastructure = {
      apiVersion: 'extensions.gardener.cloud/v1alpha1',
      kind: 'Infrastructure',
      metadata: {
        name: 'local',
        namespace: destination,
        annotations: { 'gardener.cloud/operation': 'reconcile', 'gardener.cloud/timestamp': '2026-11-29T12:05:00Z' },
      },
      spec: { type: 'local', region: 'local', secretRef: { name: 'cloudprovider', namespace: destination } },
    };
    const apply = () =>
      restoring.patch(
        ext('Infrastructure'),
        { namespace: destination, name: 'local' },
        { type: 'apply', patch: infrastructure, fieldManager: 'gardenlet', force: true },
      );
    const restored = await apply();
    expect(restored.metadata?.annotations).toMatchObject({
      'gardener.cloud/operation': 'restore',
      'gardener.cloud/timestamp': '2026-11-29T12:05:00Z',
    });
    expect(restored.status).toMatchObject(infraStatus);
    const tfstate = await client.get(SecretKind, { namespace: destination, name: 'infra-terraform-state' });
    expect(tfstate.data).toEqual({ tfstate: 'c3RhdGU=' });
    expect(tfstate.metadata?.labels).toEqual({ role: 'state' });
    // A second deployment in the same run is a plain reconcile request; other kinds pass through untouched.
    expect((await apply()).metadata?.annotations?.['gardener.cloud/operation']).toBe('reconcile');
    expect(isMigrated(restored)).toBe(false);

    await deleteShootState(client, shoot);
    await deleteShootState(client, shoot);
    await expect(client.get(ShootStateKind, { namespace: 'garden-local', name: 'local' })).rejects.toSatisfy(
      isNotFound,
    );
  }, 30_000);
});

describe("etcd's final full snapshot", () => {
  it('asks the backup-restore sidecar for /snapshot/full?final=true over TLS trusting the etcd CA', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'snapshot-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-days',
        '1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-subj',
        '/CN=etcd-main-client',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    const cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
    const requests: string[] = [];
    let status = 200;
    const server = createServer({ cert, key: readFileSync(join(dir, 'key.pem')) }, (req, res) => {
      requests.push(req.url ?? '');
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          status === 200
            ? { kind: 'Full', snapName: 'Full-00000000-00000042-1764417600.final' }
            : { error: 'etcd unreachable' },
        ),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/snapshot/full?final=true`;
    try {
      await expect(requestFinalSnapshot(url, cert)).resolves.toMatchObject({ kind: 'Full' });
      expect(requests).toEqual(['/snapshot/full?final=true']);
      status = 500;
      await expect(requestFinalSnapshot(url, cert)).rejects.toThrow(/failed: 500 .*etcd unreachable/);
      // Another CA is not trusted.
      await expect(requestFinalSnapshot(url, '')).rejects.toThrow(/final full snapshot .* failed/);
    } finally {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
