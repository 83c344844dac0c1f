// persistentVolumeClaim volumes: the kubelet mounts the directory of the claim's bound PersistentVolume.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ObjectReader } from '../pods/object-reader.js';
import { materialiseVolumes, type VolumeContext } from './pod-volumes.js';
import type { ServiceAccountTokens } from './service-account-tokens.js';

let base: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'claimed-volumes-'));
});
afterEach(() => rm(base, { recursive: true, force: true }));

const notFound = (what: string) => Promise.reject(new k8s.ApiException(404, `${what} not found`, {}, {}));

// What the binder and the local-path provisioner leave behind for `kubectl apply` of a claim `data`.
function bound(path: string): { claim: k8s.V1PersistentVolumeClaim; volume: k8s.V1PersistentVolume } {
  return {
    claim: {
      metadata: { name: 'data', namespace: 'default', uid: 'claim-uid' },
      spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'standard', volumeName: 'pvc-claim-uid' },
      status: { phase: 'Bound' },
    },
    volume: {
      metadata: { name: 'pvc-claim-uid' },
      spec: {
        hostPath: { path, type: 'DirectoryOrCreate' },
        claimRef: { namespace: 'default', name: 'data', uid: 'claim-uid' },
      },
      status: { phase: 'Bound' },
    },
  };
}

function context(claim?: k8s.V1PersistentVolumeClaim, volume?: k8s.V1PersistentVolume): VolumeContext {
  const core = {
    readNamespacedPersistentVolumeClaim: ({ name }: { name: string }) =>
      claim && name === claim.metadata?.name ? Promise.resolve(claim) : notFound(`persistentvolumeclaims "${name}"`),
    readPersistentVolume: ({ name }: { name: string }) =>
      volume && name === volume.metadata?.name ? Promise.resolve(volume) : notFound(`persistentvolumes "${name}"`),
  } as unknown as ConstructorParameters<typeof ObjectReader>[0];
  const podDir = join(base, 'pods', 'uid-1');
  return {
    pod: {
      metadata: { name: 'p', namespace: 'default', uid: 'uid-1' },
      spec: { containers: [], volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] },
    },
    podDir,
    reader: new ObjectReader(core, 'default'),
    tokens: {} as ServiceAccountTokens,
    allocatable: {},
  };
}

describe('persistentVolumeClaim volumes', () => {
  it("mount the bound volume's directory, made when missing", async () => {
    const path = join(base, 'volumes', 'pvc-claim-uid_default_data');
    const { claim, volume } = bound(path);
    const dirs = await materialiseVolumes(context(claim, volume));
    expect(dirs.get('data')).toBe(path);
    expect(existsSync(path)).toBe(true);
  });

  it('mount a local volume only when its directory exists', async () => {
    const path = join(base, 'disk');
    const { claim, volume } = bound(path);
    volume.spec = { local: { path }, claimRef: volume.spec!.claimRef };
    await expect(materialiseVolumes(context(claim, volume))).rejects.toThrow(/is not a directory/);
    await mkdir(path);
    expect((await materialiseVolumes(context(claim, volume))).get('data')).toBe(path);
  });

  it("fail with the kubelet's reasons while the claim is missing, unbound or its volume is another's", async () => {
    await expect(materialiseVolumes(context())).rejects.toThrow(
      'error processing PVC default/data: failed to fetch PVC from API server: persistentvolumeclaims "data" not found',
    );
    const { claim, volume } = bound(join(base, 'v'));
    const pending = { ...claim, spec: { ...claim.spec, volumeName: undefined }, status: { phase: 'Pending' } };
    await expect(materialiseVolumes(context(pending, volume))).rejects.toThrow(
      'error processing PVC default/data: PVC is not bound',
    );
    await expect(materialiseVolumes(context(claim))).rejects.toThrow(/persistentvolumes "pvc-claim-uid" not found/);
    const other = { ...volume, spec: { ...volume.spec, claimRef: { namespace: 'default', name: 'x', uid: 'x' } } };
    await expect(materialiseVolumes(context(claim, other))).rejects.toThrow(/it is bound to default\/x/);
    expect(existsSync(join(base, 'v'))).toBe(false);
  });
});
