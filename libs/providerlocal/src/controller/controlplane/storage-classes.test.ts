import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { storageClassesManagedResource } from './storage-classes.js';

describe('storageClassesManagedResource', () => {
  const { secret, managedResource } = storageClassesManagedResource('shoot--local--local');

  it("delivers the shoot's default local-path StorageClass", () => {
    const objects = Object.values(secret.data ?? {}).map((b64) => parse(Buffer.from(b64, 'base64').toString()));
    expect(objects).toEqual([
      {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'StorageClass',
        metadata: {
          name: 'default',
          annotations: { 'storageclass.kubernetes.io/is-default-class': 'true', defaultVolumeType: 'local' },
        },
        provisioner: 'rancher.io/local-path',
        reclaimPolicy: 'Delete',
        volumeBindingMode: 'WaitForFirstConsumer',
      },
    ]);
  });

  it("is for the shoot's resource manager: no class, no origin label, objects kept from shoot cleanup", () => {
    expect(managedResource.metadata).toEqual({
      name: 'extension-controlplane-storageclasses',
      namespace: 'shoot--local--local',
    });
    expect(managedResource.spec).toEqual({
      secretRefs: [{ name: secret.metadata!.name }],
      injectLabels: { 'shoot.gardener.cloud/no-cleanup': 'true' },
      keepObjects: false,
      forceOverwriteAnnotations: true,
    });
    expect(secret.metadata?.namespace).toBe('shoot--local--local');
  });
});
