// A Shoot's status through the garden's API as gardener-apiserver serves it, driven with the real kubectl and
// Gardener's example Shoot: status is cleared on create, changed only through /status, and a partial status is decoded
// as Go decodes it (missing non-omitempty fields come back as zero values) instead of being refused — also by the
// admission strategies on a later main-resource update, such as a controller adding its finalizer.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, startTestEnvironment, workspaceRoot, type TestEnvironment } from '@gardener-ts/testing';
import { startTestAdmission, type TestGardenWebhooks } from '../src/testing.js';

const examples = join(workspaceRoot(), 'deploy/gardener/examples/local');

const lastOperation = {
  type: 'Create',
  state: 'Processing',
  progress: 10,
  description: 'Creation of Shoot cluster in progress.',
  lastUpdateTime: '2026-01-01T00:00:00Z',
};

describe('Shoot status as Gardener decodes it', () => {
  let env: TestEnvironment;
  let admission: TestGardenWebhooks;
  let kc: string;
  const getShoot = async () =>
    JSON.parse(await kubectl(kc, ['get', 'shoot', 'local', '-n', 'garden-local', '-o', 'json']));

  beforeAll(async () => {
    env = await startTestEnvironment({ crds: [join(workspaceRoot(), 'libs/api/crds')] });
    kc = env.kubeconfigPath;
    admission = await startTestAdmission(kc);
    for (const file of ['cloudprofile.yaml', 'namespace.yaml', 'project.yaml'])
      await kubectl(kc, ['apply', '-f', join(examples, file)]);
    await kubectl(kc, ['create', 'secret', 'generic', 'local', '-n', 'garden-local']);
    await kubectl(kc, ['apply', '-f', join(examples, 'credentialsbinding.yaml')]);
  }, 120_000);

  afterAll(async () => {
    await admission?.stop();
    await env?.stop();
  });

  it('drops a status sent with the create', async () => {
    const withStatus =
      readFileSync(join(examples, 'shoot.yaml'), 'utf8') +
      '\nstatus:\n  hibernated: true\n  technicalID: shoot--local--other\n  gardener: { id: x, name: y, version: z }\n';
    await kubectl(kc, ['create', '-f', '-'], { input: withStatus });
    expect((await getShoot()).status).toBeUndefined();
  });

  it('accepts a /status patch with only lastOperation and returns the zero values Go returns', async () => {
    const patch = JSON.stringify({ status: { lastOperation } });
    const args = ['patch', 'shoot', 'local', '-n', 'garden-local', '--subresource=status', '--type=merge', '-p', patch];
    await kubectl(kc, args);
    const shoot = await getShoot();
    expect(shoot.status).toEqual({
      lastOperation,
      hibernated: false,
      gardener: { id: '', name: '', version: '' },
      technicalID: '',
      uid: '',
    });
  });

  it('accepts a main-resource update that adds a finalizer and keeps the status', async () => {
    const before = await getShoot();
    const patch = JSON.stringify({ metadata: { finalizers: ['gardener'] }, status: { hibernated: true } });
    await kubectl(kc, ['patch', 'shoot', 'local', '-n', 'garden-local', '--type=merge', '-p', patch]);
    const shoot = await getShoot();
    expect(shoot.metadata.finalizers).toEqual(['gardener']);
    expect(shoot.status).toEqual(before.status); // status changes only through /status
  });

  it('accepts a full /status replace that leaves fields out, and refuses a wrongly typed one', async () => {
    const shoot = await getShoot();
    const replaced = { ...shoot, status: { lastOperation: { ...lastOperation, progress: 50 } } };
    await kubectl(kc, ['replace', '--subresource=status', '-f', '-'], { input: JSON.stringify(replaced) });
    expect((await getShoot()).status).toMatchObject({
      lastOperation: { progress: 50 },
      hibernated: false,
      gardener: { id: '', name: '', version: '' },
    });
    const wrong = JSON.stringify({ status: { hibernated: 'yes' } });
    const args = ['patch', 'shoot', 'local', '-n', 'garden-local', '--subresource=status', '--type=merge', '-p', wrong];
    await expect(kubectl(kc, args)).rejects.toThrow(/status\.hibernated/);
  });
});
