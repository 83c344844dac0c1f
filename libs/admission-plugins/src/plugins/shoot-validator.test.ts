import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runChain } from '../chain.js';
import { ShootValidator } from './shoot-validator.js';
import type { KubeObject } from '../attributes.js';

const profile = () => example('local/cloudprofile.yaml');
const shoot = () => example('local/shoot.yaml');

async function admit(object: KubeObject, old?: KubeObject, objects: KubeObject[] = [profile()]) {
  return runChain([ShootValidator], request(old ? 'UPDATE' : 'CREATE', object, old), staticListers(objects));
}

describe('ShootValidator defaulting', () => {
  it("gives Gardener's example Shoot (no kubernetes.version) the CloudProfile's highest supported version", async () => {
    const result = await admit(shoot());
    expect(result.allowed).toBe(true);
    if (!result.allowed) return;
    expect(result.object?.spec.kubernetes.version).toBe('1.36.0');
  });

  it('resolves a major.minor version to its highest patch', async () => {
    const s = shoot();
    s.spec.kubernetes.version = '1.35';
    const result = await admit(s);
    expect(result.allowed && result.object?.spec.kubernetes.version).toBe('1.35.4');
  });

  it('defaults the machine image to the first image with its highest non-preview version', async () => {
    const result = await admit(shoot());
    expect(result.allowed && result.object?.spec.provider.workers[0].machine.image).toEqual({
      name: 'local',
      version: '1.0.0',
    });
  });

  it('leaves a complete, supported version alone', async () => {
    const s = shoot();
    s.spec.kubernetes.version = '1.34.3';
    const result = await admit(s);
    expect(result.allowed && result.object?.spec.kubernetes.version).toBe('1.34.3');
  });

  it('refuses a Shoot whose CloudProfile does not exist', async () => {
    const result = await admit(shoot(), undefined, []);
    expect(result).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'shoots.core.gardener.cloud "local" is forbidden: could not find referenced cloud profile: cloudprofiles.core.gardener.cloud "local" not found',
    });
  });

  it('reads a NamespacedCloudProfile from its computed status', async () => {
    const s = shoot();
    s.spec.cloudProfile = { kind: 'NamespacedCloudProfile', name: 'custom' };
    const namespaced = {
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'NamespacedCloudProfile',
      metadata: { name: 'custom', namespace: 'garden-local' },
      spec: { parent: { kind: 'CloudProfile', name: 'local' } },
      status: { cloudProfileSpec: { ...profile().spec, kubernetes: { versions: [{ version: '1.33.0' }] } } },
    };
    const result = await admit(s, undefined, [namespaced]);
    expect(result.allowed && result.object?.spec.kubernetes.version).toBe('1.33.0');
  });
});

describe('ShootValidator validation against the CloudProfile', () => {
  it('refuses a Kubernetes version the CloudProfile does not offer', async () => {
    const s = shoot();
    s.spec.kubernetes.version = '1.30.1';
    expect(await admit(s)).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'shoots.core.gardener.cloud "local" is forbidden: spec.kubernetes.version: Unsupported value: "1.30.1": supported values: "1.36.0", "1.35.4", "1.34.3", "1.33.0", "1.32.0"',
    });
  });

  it('refuses an expired Kubernetes version for a new Shoot but keeps it for an unchanged existing one', async () => {
    const p = profile();
    p.spec.kubernetes.versions.find((v: { version: string }) => v.version === '1.32.0').expirationDate =
      '2020-01-01T00:00:00Z';
    const s = shoot();
    s.spec.kubernetes.version = '1.32.0';
    const created = await admit(s, undefined, [p]);
    expect(created.allowed).toBe(false);
    expect(!created.allowed && created.message).toContain('spec.kubernetes.version: Unsupported value: "1.32.0"');
    const old = structuredClone(s);
    s.metadata!.labels = { team: 'a' };
    expect((await admit(s, old, [p])).allowed).toBe(true);
  });

  it('refuses an unknown region, machine type, machine image version, volume type and zone with their field paths', async () => {
    const s = shoot();
    s.spec.region = 'mars';
    s.spec.provider.workers[0].machine.type = 'huge';
    s.spec.provider.workers[0].machine.image = { name: 'local', version: '9.9.9' };
    s.spec.provider.workers[0].volume = { type: 'ssd', size: '10Gi' };
    const result = await admit(s);
    expect(result.allowed).toBe(false);
    if (result.allowed) return;
    expect(result.message).toContain('spec.region: Unsupported value: "mars": supported values: "local"');
    expect(result.message).toContain(
      'spec.provider.workers[0].machine.type: Unsupported value: "huge": supported values: "local"',
    );
    expect(result.message).toContain('spec.provider.workers[0].machine.image.version: Unsupported value: "9.9.9"');
    expect(result.message).toContain('spec.provider.workers[0].volume.type: Unsupported value: "ssd"');

    const zoned = shoot();
    zoned.spec.provider.workers[0].zones = ['z1'];
    const zoneResult = await admit(zoned);
    expect(!zoneResult.allowed && zoneResult.message).toContain(
      'spec.provider.workers[0].zones[0]: Unsupported value: "z1"',
    );
  });

  it('accepts a preview machine image version that is asked for explicitly', async () => {
    const s = shoot();
    s.spec.provider.workers[0].machine.image = { name: 'local', version: '2.0.0' };
    expect((await admit(s)).allowed).toBe(true);
  });
});
