// The eleven extension kinds the generic reconciler serves, with Gardener's finalizers, scopes and Cluster lookup.
import { describe, expect, it } from 'vitest';
import { ExtensionKinds, shootTechnicalIDOfBackupEntry, type ExtensionObject } from './kinds.js';

describe('ExtensionKinds', () => {
  it("lists every kind of extensions.gardener.cloud/v1alpha1 with Gardener's finalizer and scope", () => {
    const table = Object.values(ExtensionKinds).map((k) => [
      k.name,
      `${k.kind.group}/${k.kind.version}`,
      k.finalizer,
      k.namespaced,
      k.clusterRequired,
    ]);
    expect(table).toEqual([
      ['BackupBucket', 'extensions.gardener.cloud/v1alpha1', 'extensions.gardener.cloud/backupbucket', false, false],
      ['BackupEntry', 'extensions.gardener.cloud/v1alpha1', 'extensions.gardener.cloud/backupentry', false, false],
      ['Bastion', 'extensions.gardener.cloud/v1alpha1', 'extensions.gardener.cloud/bastion', true, true],
      [
        'ContainerRuntime',
        'extensions.gardener.cloud/v1alpha1',
        'extensions.gardener.cloud/containerruntime',
        true,
        true,
      ],
      ['ControlPlane', 'extensions.gardener.cloud/v1alpha1', 'extensions.gardener.cloud/controlplane', true, true],
      ['DNSRecord', 'extensions.gardener.cloud/v1alpha1', 'extensions.gardener.cloud/dnsrecord', true, false],
      ['Extension', 'extensions.gardener.cloud/v1alpha1', 'extensions.gardener.cloud/extension', true, true],
      ['Infrastructure', 'extensions.gardener.cloud/v1alpha1', 'extensions.gardener.cloud/infrastructure', true, true],
      ['Network', 'extensions.gardener.cloud/v1alpha1', 'extensions.gardener.cloud/network', true, true],
      [
        'OperatingSystemConfig',
        'extensions.gardener.cloud/v1alpha1',
        'extensions.gardener.cloud/operatingsystemconfigs',
        true,
        true,
      ],
      ['Worker', 'extensions.gardener.cloud/v1alpha1', 'extensions.gardener.cloud/worker', true, true],
    ]);
  });

  it("finds a namespaced object's Cluster by its namespace, a BackupEntry's by its technical ID, none for a bucket", () => {
    const obj = (namespace: string | undefined, name: string): ExtensionObject => ({
      metadata: { ...(namespace ? { namespace } : {}), name },
      spec: { type: 'local' },
    });
    expect(ExtensionKinds.Worker.clusterName(obj('shoot--dev--demo', 'demo'))).toBe('shoot--dev--demo');
    expect(ExtensionKinds.BackupEntry.clusterName(obj(undefined, 'source-shoot--dev--demo--uid'))).toBe(
      'shoot--dev--demo',
    );
    expect(ExtensionKinds.BackupBucket.clusterName(obj(undefined, 'bucket'))).toBeUndefined();
    expect(shootTechnicalIDOfBackupEntry('no-separator')).toBeUndefined();
  });
});
