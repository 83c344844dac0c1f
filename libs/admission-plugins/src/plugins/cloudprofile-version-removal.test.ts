import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runChain } from '../chain.js';
import { ResourceReferenceManager } from './resource-reference-manager.js';
import { multiErrorText, removedMachineImages } from './cloudprofile-version-removal.js';
import type { KubeObject } from '../attributes.js';

const profile = () => example('local/cloudprofile.yaml');

/** Gardener's example Shoot as stored: Kubernetes 1.34.3 on `local@1.0.0`. */
function shoot(change: (s: KubeObject) => void = () => undefined) {
  const s = example('local/shoot.yaml');
  s.spec.kubernetes.version = '1.34.3';
  s.spec.provider.workers[0].machine.image = { name: 'local', version: '1.0.0' };
  change(s);
  return s;
}

/** The local profile without Kubernetes `1.34.3` (and, with `image`, without machine image version `local@1.0.0`). */
function trimmed(image = false) {
  const p = profile();
  p.spec.kubernetes.versions = p.spec.kubernetes.versions.filter((v: { version: string }) => v.version !== '1.34.3');
  if (image)
    p.spec.machineImages[0].versions = p.spec.machineImages[0].versions.filter(
      (v: { version: string }) => v.version !== '1.0.0',
    );
  return p;
}

const update = (current: KubeObject, objects: KubeObject[]) =>
  runChain([ResourceReferenceManager], request('UPDATE', current, profile()), staticListers(objects));

describe('ResourceReferenceManager: versions removed from a CloudProfile', () => {
  it("refuses removing a Kubernetes version a Shoot runs, in Gardener's words", async () => {
    expect(await update(trimmed(), [shoot()])).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'cloudprofiles.core.gardener.cloud "local" is forbidden: 1 error occurred:\n' +
        `\t* unable to delete Kubernetes version "1.34.3" from CloudProfile "local" - version is still in use by shoot 'garden-local/local'\n\n`,
    });
  });

  it('refuses removing a machine image version a worker pool runs, listing every use', async () => {
    const result = await update(trimmed(true), [shoot()]);
    expect(!result.allowed && result.message).toBe(
      'cloudprofiles.core.gardener.cloud "local" is forbidden: 2 errors occurred:\n' +
        `\t* unable to delete Kubernetes version "1.34.3" from CloudProfile "local" - version is still in use by shoot 'garden-local/local'\n` +
        `\t* unable to delete Machine image version 'local/1.0.0' from CloudProfile "local" - version is still in use by shoot 'garden-local/local' by worker "local"\n\n`,
    );
  });

  it('allows removing what no Shoot uses, and ignores Shoots of other profiles or in deletion', async () => {
    expect((await update(trimmed(true), [])).allowed).toBe(true);
    const other = shoot((s) => (s.spec.cloudProfile = { kind: 'CloudProfile', name: 'other' }));
    const deleting = shoot((s) => (s.metadata!.deletionTimestamp = '2026-01-01T00:00:00Z'));
    expect((await update(trimmed(true), [other, deleting])).allowed).toBe(true);
    const added = profile();
    added.spec.kubernetes.versions.push({ version: '1.37.0' });
    expect((await update(added, [shoot()])).allowed).toBe(true);
  });

  it('counts Shoots of a NamespacedCloudProfile with this parent, and the versions the NamespacedCloudProfile lists', async () => {
    const namespaced = {
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'NamespacedCloudProfile',
      metadata: { name: 'custom', namespace: 'garden-local' },
      spec: { parent: { kind: 'CloudProfile', name: 'local' }, kubernetes: { versions: [{ version: '1.34.3' }] } },
    };
    const viaNamespaced = shoot((s) => (s.spec.cloudProfile = { kind: 'NamespacedCloudProfile', name: 'custom' }));
    const result = await update(trimmed(), [namespaced, viaNamespaced]);
    expect(!result.allowed && result.message).toBe(
      'cloudprofiles.core.gardener.cloud "local" is forbidden: 2 errors occurred:\n' +
        `\t* unable to delete Kubernetes version "1.34.3" from CloudProfile "local" - version is still in use by NamespacedCloudProfile 'garden-local/custom'\n` +
        `\t* unable to delete Kubernetes version "1.34.3" from CloudProfile "local" - version is still in use by shoot 'garden-local/local'\n\n`,
    );
  });
});

describe('removedMachineImages', () => {
  it('lists removed images with all their versions and removed versions of kept images', () => {
    const old = [
      { name: 'a', versions: [{ version: '1' }, { version: '2' }] },
      { name: 'b', versions: [{ version: '1' }] },
    ];
    const { images, versions } = removedMachineImages(old, [{ name: 'a', versions: [{ version: '2' }] }]);
    expect([...images]).toEqual(['b']);
    expect(Object.fromEntries([...versions].map(([k, v]) => [k, [...v]]))).toEqual({ a: ['1'], b: ['1'] });
  });

  it('formats errors as go-multierror does', () => {
    expect(multiErrorText(['x'])).toBe('1 error occurred:\n\t* x\n\n');
    expect(multiErrorText(['x', 'y'])).toBe('2 errors occurred:\n\t* x\n\t* y\n\n');
  });
});
