// The gardenlet binary started with Gardener's example configuration (only the kubeconfigs and the seed changed) and
// a bootstrap token, on one local API server that is garden and seed: its CSR is approved here as
// gardener-controller-manager would, Seed `local` is registered and reaches GardenletReady and Bootstrapped True,
// /healthz answers 200. Stopped, it no longer renews the Lease (turning GardenletReady Unknown is the
// controller-manager's seed lifecycle job, not the gardenlet's). Killed with SIGKILL while leading, a restarted
// gardenlet repairs the seed without a new CSR or duplicate objects.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedCRDs } from '@gardener-ts/api';
import { ApiClient, Kinds } from '@gardener-ts/controller-runtime';
import { SeedKind } from '@gardener-ts/gardenlet-controllers';
import { bootstrapManifests, exampleGardenletConfig } from '@gardener-ts/gardenlet-controllers/testing';
import {
  appBundle,
  kubectl,
  startProcess,
  startTestEnvironment,
  stopAllProcesses,
  waitFor,
  workspaceRoot,
  type TestEnvironment,
} from '@gardener-ts/testing';

const root = workspaceRoot();
let env: TestEnvironment;
let admin: ApiClient;
let dir: string;
let configPath: string;

beforeAll(async () => {
  env = await startTestEnvironment({ crds: generatedCRDs() });
  admin = await ApiClient.create(env.kubeconfigPath);
  await kubectl(env.kubeconfigPath, ['apply', '-f', '-'], {
    input: bootstrapManifests(await readFile(env.kubeconfigPath, 'utf8')),
  });
  dir = await mkdtemp(join(tmpdir(), 'gardenlet-e2e-'));
  configPath = join(dir, 'config.yaml');
  await writeFile(
    configPath,
    exampleGardenletConfig(
      await readFile(new URL('./fixtures/config.yaml', import.meta.url), 'utf8'),
      await readFile(join(root, 'deploy/gardener/examples/50-seed.yaml'), 'utf8'),
      { seedKubeconfig: env.kubeconfigPath, seedName: 'local' },
    ),
  );
}, 60_000);

afterAll(async () => {
  await stopAllProcesses();
  admin?.close();
  await env?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const condition = async (type: string) =>
  (await admin.get(SeedKind, { name: 'local' }).catch(() => undefined))?.status?.conditions?.find(
    (c) => c.type === type,
  );

describe('gardenlet binary', () => {
  it('bootstraps with a bootstrap token and brings Seed local to GardenletReady and Bootstrapped', async () => {
    const proc = startProcess(process.execPath, [appBundle('gardenlet'), '--config', configPath]);
    // gardener-controller-manager's job: approve the gardenlet's CSR (it is not running in this test).
    const csr = await waitFor(
      'the gardenlet CSR',
      async () => {
        if (proc.child.exitCode !== null) throw new Error(`gardenlet exited:\n${proc.output()}`);
        const list = await admin.list(Kinds.CertificateSigningRequest);
        return list.items.find((c) => c.metadata?.name?.startsWith('seed-csr-'))?.metadata?.name;
      },
      { timeoutMs: 20_000 },
    );
    await kubectl(env.kubeconfigPath, ['certificate', 'approve', csr]);

    await waitFor('GardenletReady True', async () => (await condition('GardenletReady'))?.status === 'True', {
      timeoutMs: 30_000,
    });
    const bootstrapped = await waitFor(
      'Bootstrapped True',
      async () => {
        const c = await condition('Bootstrapped');
        return c?.status === 'True' ? c : undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect(bootstrapped.reason).toBe('BootstrappingSucceeded');
    const started = proc
      .output()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { msg: string; healthProbes?: { port: number } })
      .find((l) => l.msg === 'Started');
    expect((await fetch(`http://127.0.0.1:${started!.healthProbes!.port}/healthz`)).status).toBe(200);
    expect(proc.output()).toContain('"source":"bootstrap"');

    expect(await proc.stop()).toBe(0);
    const lease = await admin.get(Kinds.Lease, { namespace: 'gardener-system-seed-lease', name: 'local' });
    await new Promise((r) => setTimeout(r, 3_000)); // longer than leaseResyncSeconds (2 s)
    const after = await admin.get(Kinds.Lease, { namespace: 'gardener-system-seed-lease', name: 'local' });
    expect(after.spec?.renewTime).toBe(lease.spec?.renewTime);
  });

  it('killed with SIGKILL while it leads and reconciles, restarted, converges without a new CSR or duplicates', async () => {
    const csrsBefore = (await admin.list(Kinds.CertificateSigningRequest)).items.length;
    // Drift the restarted gardenlet has to repair.
    await admin.delete(Kinds.Deployment, { namespace: 'garden', name: 'gardener-resource-manager' });
    await admin.delete(Kinds.PriorityClass, { name: 'gardener-system-600' });

    const first = startProcess(process.execPath, [appBundle('gardenlet'), '--config', configPath]);
    await waitFor('the first gardenlet to lead', () => first.output().includes('"msg":"Elected leader"') || undefined, {
      timeoutMs: 30_000,
    });
    first.child.kill('SIGKILL');
    await first.exited;

    // The restarted gardenlet uses the stored kubeconfig (no new CSR), waits until the killed one's leader Lease
    // expires (15 s in Gardener's example configuration), then reconciles the seed again.
    const second = startProcess(process.execPath, [appBundle('gardenlet'), '--config', configPath]);
    await waitFor(
      'the seed repaired after the restart',
      async () => {
        await admin.get(Kinds.Deployment, { namespace: 'garden', name: 'gardener-resource-manager' });
        await admin.get(Kinds.PriorityClass, { name: 'gardener-system-600' });
        const lease = await admin.get(Kinds.Lease, { namespace: 'gardener-system-seed-lease', name: 'local' });
        return (
          (await condition('Bootstrapped'))?.status === 'True' &&
          Date.now() - Date.parse(String(lease.spec?.renewTime)) < 5_000
        );
      },
      { timeoutMs: 60_000 },
    );
    expect(second.output()).toContain('"source":"kubeconfig-secret"');
    expect((await admin.list(Kinds.CertificateSigningRequest)).items.length).toBe(csrsBefore);
    expect((await admin.list(SeedKind)).items.map((s) => s.metadata?.name)).toEqual(['local']);
    expect((await admin.list(Kinds.Lease, { namespace: 'gardener-system-seed-lease' })).items).toHaveLength(1);
    const grms = (await admin.list(Kinds.Deployment, { namespace: 'garden' })).items.filter((d) =>
      d.metadata?.name?.includes('resource-manager'),
    );
    expect(grms.map((d) => d.metadata?.name)).toEqual(['gardener-resource-manager']);
    expect(await second.stop()).toBe(0);
  }, 90_000);
});
