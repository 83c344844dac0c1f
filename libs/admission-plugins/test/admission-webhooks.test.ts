// The admission webhooks registered on a test API server, driven with the real kubectl and Gardener's example
// manifests, as a user of the garden would.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, runKubectl, startTestEnvironment, workspaceRoot, type TestEnvironment } from '@gardener-ts/testing';
import { startTestAdmission, type TestGardenWebhooks } from '../src/testing.js';

const examples = join(workspaceRoot(), 'deploy/gardener/examples/local');

describe('startTestAdmission', () => {
  let env: TestEnvironment;
  let admission: TestGardenWebhooks;
  let kc: string;
  let admissionDir: string;

  beforeAll(async () => {
    env = await startTestEnvironment({ crds: [join(workspaceRoot(), 'libs/api/crds')] });
    kc = env.kubeconfigPath;
    admission = await startTestAdmission(kc);
    admissionDir = await mkdtemp(join(tmpdir(), 'admission-test-'));
  }, 120_000);

  afterAll(async () => {
    await admission?.stop();
    await env?.stop();
    await rm(admissionDir, { recursive: true, force: true });
  });

  it("defaults Gardener's example Shoot with the CloudProfile's Kubernetes version", async () => {
    for (const file of ['cloudprofile.yaml', 'namespace.yaml', 'project.yaml'])
      await kubectl(kc, ['apply', '-f', join(examples, file)]);
    await kubectl(kc, ['create', 'secret', 'generic', 'local', '-n', 'garden-local']);
    await kubectl(kc, ['apply', '-f', join(examples, 'credentialsbinding.yaml')]);
    await kubectl(kc, ['apply', '-f', join(examples, 'shoot.yaml')]);
    const shoot = JSON.parse(await kubectl(kc, ['get', 'shoot', 'local', '-n', 'garden-local', '-o', 'json']));
    expect(shoot.spec.kubernetes.version).toBe('1.36.0');
    expect(shoot.spec.provider.workers[0].machine.image).toEqual({ name: 'local', version: '1.0.0' });
    expect(shoot.metadata.labels['provider.extensions.gardener.cloud/local']).toBe('true');
    expect(shoot.metadata.annotations['gardener.cloud/created-by']).toBeTruthy();
    // ShootMutator: a new Shoot's first reconciliation deploys infrastructure and DNS records.
    expect(shoot.metadata.annotations['shoot.gardener.cloud/tasks']).toBe(
      'deployInfrastructure,deployDNSRecordInternal,deployDNSRecordExternal,deployDNSRecordIngress',
    );
    // ShootResourceReservation (default configuration): Gardener's static kubelet reservation.
    expect(shoot.spec.kubernetes.kubelet.kubeReserved).toEqual({ cpu: '80m', memory: '1Gi', pid: '20k' });
    const project = JSON.parse(await kubectl(kc, ['get', 'project', 'local', '-o', 'json']));
    expect(project.spec.owner).toEqual(project.spec.createdBy);
  });

  it('refuses a Shoot with a Kubernetes version the CloudProfile does not offer, with Gardener’s message', async () => {
    const shoot = readFileSync(join(examples, 'shoot.yaml'), 'utf8')
      .replace('name: local\n  namespace', 'name: old\n  namespace')
      .replace('  kubernetes:\n', '  kubernetes:\n    version: 1.20.0\n');
    const result = await runKubectl(kc, ['apply', '-f', '-'], { input: shoot });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      'shoots.core.gardener.cloud "old" is forbidden: spec.kubernetes.version: Unsupported value: "1.20.0"',
    );
  });

  it('refuses changing an immutable field', async () => {
    const result = await runKubectl(kc, [
      'patch',
      'shoot',
      'local',
      '-n',
      'garden-local',
      '--type=merge',
      '-p',
      '{"spec":{"region":"other"}}',
    ]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/Shoot\.core\.gardener\.cloud "local" is invalid: .*spec\.region/);
  });

  it('deletes a Shoot only after the deletion is confirmed', async () => {
    const refused = await runKubectl(kc, ['delete', 'shoot', 'local', '-n', 'garden-local', '--wait=false']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('must have a "confirmation.gardener.cloud/deletion" annotation to delete');
    await kubectl(kc, [
      'annotate',
      'shoot',
      'local',
      '-n',
      'garden-local',
      'confirmation.gardener.cloud/deletion=true',
    ]);
    await kubectl(kc, ['delete', 'shoot', 'local', '-n', 'garden-local', '--wait=false']);
  });

  it("refuses deleting the project's namespace directly", async () => {
    const result = await runKubectl(kc, ['delete', 'namespace', 'garden-local', '--wait=false']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      'direct deletion of namespace "garden-local" is forbidden: it belongs to project "local"',
    );
  });

  it('refuses a kubeconfig Secret with an exec user in a project namespace, not elsewhere', async () => {
    const file = join(admissionDir, 'kubeconfig');
    await writeFile(
      file,
      'apiVersion: v1\nkind: Config\nclusters: [{ name: c, cluster: { server: "https://x" } }]\nusers: [{ name: u, user: { exec: { command: sh, apiVersion: client.authentication.k8s.io/v1 } } }]\ncontexts: [{ name: c, context: { cluster: c, user: u } }]\ncurrent-context: c\n',
    );
    const refused = await runKubectl(kc, [
      'create',
      'secret',
      'generic',
      'robot',
      '-n',
      'garden-local',
      `--from-file=kubeconfig=${file}`,
    ]);
    expect(refused.stderr).toContain('secret contains invalid kubeconfig: user "u": exec is not supported');
    await kubectl(kc, ['create', 'secret', 'generic', 'robot', '-n', 'default', `--from-file=kubeconfig=${file}`]);
  });

  it('asks the API server whether the user may change the toleration whitelist (the admin may)', async () => {
    await kubectl(kc, [
      'patch',
      'project',
      'local',
      '--type=merge',
      '-p',
      '{"spec":{"tolerations":{"whitelist":[{"key":"special"}]}}}',
    ]);
    expect(await kubectl(kc, ['get', 'project', 'local', '-o', 'jsonpath={.spec.tolerations.whitelist[0].key}'])).toBe(
      'special',
    );
  });

  it('keeps the audit policy ConfigMap a Shoot references valid', async () => {
    const policy = join(admissionDir, 'policy.yaml');
    await writeFile(policy, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n');
    const shoot = (configMap: string) =>
      readFileSync(join(examples, 'shoot.yaml'), 'utf8')
        .replace('name: local\n  namespace', 'name: audited\n  namespace')
        .replace(
          '  kubernetes:\n',
          `  kubernetes:\n    kubeAPIServer:\n      auditConfig:\n        auditPolicy:\n          configMapRef:\n            name: ${configMap}\n`,
        );
    const missing = await runKubectl(kc, ['apply', '-f', '-'], { input: shoot('audit-policy') });
    expect(missing.stderr).toContain(
      'referenced audit policy ConfigMap garden-local/audit-policy does not exist: configmaps "audit-policy" not found',
    );
    await kubectl(kc, ['create', 'configmap', 'audit-policy', '-n', 'garden-local', `--from-file=policy=${policy}`]);
    await kubectl(kc, ['apply', '-f', '-'], { input: shoot('audit-policy') });
    const refused = await runKubectl(kc, [
      'patch',
      'configmap',
      'audit-policy',
      '-n',
      'garden-local',
      '--type=merge',
      '-p',
      JSON.stringify({
        data: { policy: 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Everything\n' },
      }),
    ]);
    expect(refused.stderr).toContain(
      'provided invalid audit policy: [rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"]',
    );
    // ConfigMaps outside project namespaces do not reach the webhook.
    await kubectl(kc, ['create', 'configmap', 'audit-policy', '-n', 'default', `--from-file=policy=${policy}`]);
    await kubectl(kc, [
      'patch',
      'configmap',
      'audit-policy',
      '-n',
      'default',
      '--type=merge',
      '-p',
      '{"data":{"policy":"x"}}',
    ]);
  });
  it('moves a Shoot to another seed (control plane migration) for users who may update shoots/binding', async () => {
    const seedManifest = (name: string) =>
      readFileSync(join(workspaceRoot(), 'deploy/gardener/examples/50-seed.yaml'), 'utf8')
        .replace(/<provider-name>/g, 'local')
        .replace('name: my-seed', `name: ${name}`)
        // The shoot defaults the example leaves commented out: a scheduled Shoot without networks needs them.
        .replace(
          '  # shootDefaults:\n  #   pods: 100.96.0.0/11\n  #   services: 100.64.0.0/13\n',
          '    shootDefaults:\n      pods: 100.96.0.0/11\n      services: 100.64.0.0/13\n',
        );
    for (const name of ['local', 'local2']) await kubectl(kc, ['apply', '-f', '-'], { input: seedManifest(name) });
    const shoot = readFileSync(join(examples, 'shoot.yaml'), 'utf8')
      .replace('name: local\n  namespace', 'name: moving\n  namespace')
      .replace('spec:\n', 'spec:\n  seedName: local\n');
    await kubectl(kc, ['apply', '-f', '-'], { input: shoot });
    // A project member who may patch Shoots, but not bind them.
    await kubectl(kc, [
      'create',
      'role',
      'shoot-editor',
      '-n',
      'garden-local',
      '--verb=get,patch',
      '--resource=shoots',
    ]);
    await kubectl(kc, ['create', 'rolebinding', 'alice', '-n', 'garden-local', '--role=shoot-editor', '--user=alice']);
    const migrate = (seed: string, as?: string) =>
      runKubectl(kc, [
        ...(as ? [`--as=${as}`] : []),
        'patch',
        'shoot',
        'moving',
        '-n',
        'garden-local',
        '--type=merge',
        '-p',
        JSON.stringify({ spec: { seedName: seed } }),
      ]);
    const refused = await migrate('local2', 'alice');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      "shoots.core.gardener.cloud \"moving\" is forbidden: spec.seedName 'local' cannot be changed to 'local2' by patching the shoot, please use the shoots/binding subresource",
    );
    // Gardener's right to migrate: update on shoots/binding.
    await kubectl(kc, [
      'create',
      'role',
      'shoot-binder',
      '-n',
      'garden-local',
      '--verb=update',
      '--resource=shoots/binding',
    ]);
    await kubectl(kc, [
      'create',
      'rolebinding',
      'alice-binder',
      '-n',
      'garden-local',
      '--role=shoot-binder',
      '--user=alice',
    ]);
    const allowed = await migrate('local2', 'alice');
    expect(allowed.stderr).toBe('');
    const seedName = () =>
      kubectl(kc, ['get', 'shoot', 'moving', '-n', 'garden-local', '-o', 'jsonpath={.spec.seedName}']);
    expect(await seedName()).toBe('local2');
    // Cluster admins (system:masters) may, too; nobody may remove the seed.
    expect((await migrate('local')).code).toBe(0);
    expect(await seedName()).toBe('local');
    const unset = await runKubectl(kc, [
      'patch',
      'shoot',
      'moving',
      '-n',
      'garden-local',
      '--type=json',
      '-p',
      '[{"op":"remove","path":"/spec/seedName"}]',
    ]);
    expect(unset.stderr).toContain(
      "shoots.core.gardener.cloud \"moving\" is forbidden: spec.seedName is already set to 'local' and cannot be changed to 'nil'",
    );
  });
});
