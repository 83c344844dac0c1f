// The extension resources of Gardener's provider-local example Shoot, as the flow writes them into the seed.
import { describe, expect, it } from 'vitest';
import {
  machineImageOf,
  renderBackupEntry,
  renderContainerRuntimes,
  renderControlPlane,
  renderDNSRecord,
  renderExtensions,
  renderInfrastructure,
  renderNetwork,
  renderOperatingSystemConfigs,
  renderWorker,
} from './extensions.js';
import { exampleValues } from './testdata/fixtures.js';

const now = '2026-11-25T01:00:00Z';
const reconcile = { 'gardener.cloud/operation': 'reconcile', 'gardener.cloud/timestamp': now };

describe('extension resources', () => {
  const values = exampleValues();

  it('Infrastructure and ControlPlane carry the provider, region and cloud provider secret', () => {
    const infrastructure = renderInfrastructure(values, { now });
    expect(infrastructure.metadata).toEqual({
      name: 'local',
      namespace: 'shoot--local--local',
      annotations: reconcile,
    });
    expect(infrastructure.spec).toEqual({
      type: 'local',
      region: 'local',
      secretRef: { name: 'cloudprovider', namespace: 'shoot--local--local' },
    });
    const controlPlane = renderControlPlane(values, { now, infrastructureProviderStatus: { network: 'x' } });
    expect(controlPlane.spec).toMatchObject({ type: 'local', infrastructureProviderStatus: { network: 'x' } });
  });

  it('Network takes the type and the networks defaulted from the seed', () => {
    expect(renderNetwork(values, { now }).spec).toEqual({
      type: 'calico',
      podCIDR: '10.3.0.0/16',
      serviceCIDR: '10.4.0.0/16',
      ipFamilies: ['IPv4'],
    });
  });

  it('Worker pools take the newest supported machine image and the shoot kubelet settings', () => {
    expect(machineImageOf(values, values.shoot.spec.provider.workers![0])).toEqual({ name: 'local', version: '1.0.0' });
    const worker = renderWorker(values, { now, userDataSecretNames: { local: 'user-data-local' } });
    expect(worker.spec.pools).toHaveLength(1);
    expect(worker.spec.pools[0]).toMatchObject({
      name: 'local',
      machineType: 'local',
      machineImage: { name: 'local', version: '1.0.0' },
      minimum: 1,
      maximum: 2,
      maxSurge: 1,
      maxUnavailable: 0,
      kubernetesVersion: '1.33.0',
      userDataSecretRef: { name: 'user-data-local', key: 'cloud_config' },
      labels: { 'worker.gardener.cloud/pool': 'local', 'worker.gardener.cloud/cri-name': 'containerd' },
      kubeletConfig: { seccompDefault: true, registryPullQPS: 10 },
    });
    expect(() => renderWorker(values, { now, userDataSecretNames: {} })).toThrow(
      'worker pool local: no user data secret',
    );
  });

  it('two OperatingSystemConfigs per pool, one per purpose', () => {
    const node = { apiServerURL: 'https://127.0.0.1:30443', caBundle: 'CA' };
    const oscs = renderOperatingSystemConfigs(values, { now, ...node });
    expect(oscs.map((o) => [o.metadata?.name, o.spec.purpose, o.spec.type])).toEqual([
      ['cloud-config-local-init', 'provision', 'local'],
      ['cloud-config-local-original', 'reconcile', 'local'],
    ]);
    expect(oscs[0]!.spec.units?.map((u) => u.name)).toEqual(['gardener-node-agent.service']);
    expect(oscs[1]!.spec.units?.map((u) => u.name)).toEqual([
      'kubelet.service',
      'gardener-node-agent.service',
      'sshd.service',
    ]);
    expect(
      renderOperatingSystemConfigs(
        exampleValues((s) => (s.spec.provider.workers = [])),
        { now, ...node },
      ),
    ).toEqual([]);
  });

  it('Extensions and ContainerRuntimes follow the shoot spec', () => {
    const withExtensions = exampleValues((s) => {
      s.spec.extensions = [{ type: 'shoot-dns-service', providerConfig: { a: 1 } }];
      s.spec.provider.workers![0].cri = { name: 'containerd', containerRuntimes: [{ type: 'gvisor' }] };
    });
    expect(renderExtensions(withExtensions, { now }).map((e) => [e.metadata?.name, e.spec])).toEqual([
      ['shoot-dns-service', { type: 'shoot-dns-service', providerConfig: { a: 1 } }],
    ]);
    expect(renderContainerRuntimes(withExtensions, { now })[0]).toMatchObject({
      metadata: { name: 'gvisor-local' },
      spec: {
        type: 'gvisor',
        // containerd's folder for the binaries a ContainerRuntime extension installs (Gardener's constant).
        binaryPath: '/var/bin/containerruntimes',
        workerPool: { name: 'local', selector: { matchLabels: { 'worker.gardener.cloud/pool': 'local' } } },
      },
    });
    expect(renderContainerRuntimes(values, { now })).toEqual([]);
  });

  it('the internal DNSRecord points api.<internal domain> at the LoadBalancer; no external without a domain', () => {
    const internal = renderDNSRecord(values, 'internal', { now, providerType: 'local', address: '127.0.0.1' });
    expect(internal?.metadata?.name).toBe('local-internal');
    expect(internal?.spec).toMatchObject({
      type: 'local',
      name: 'api.local.local.internal.local.gardener.cloud',
      recordType: 'A',
      values: ['127.0.0.1'],
      secretRef: { name: 'dnsrecord-internal' },
    });
    expect(renderDNSRecord(values, 'external', { now, providerType: 'local', address: '127.0.0.1' })).toBeUndefined();
    const external = exampleValues((s) => (s.spec.dns = { domain: 'local.example.com' }));
    expect(
      renderDNSRecord(external, 'external', { now, providerType: 'local', address: 'lb.example.com' })?.spec,
    ).toMatchObject({
      name: 'api.local.example.com',
      recordType: 'CNAME',
    });
  });

  it('the BackupEntry is named after the technical ID and shoot UID, only with seed backup', () => {
    const entry = renderBackupEntry(values, { bucketName: 'bucket' });
    expect(entry?.metadata).toMatchObject({
      name: 'shoot--local--local--0d5b5b84-2222-4a4a-8b8b-000000000002',
      namespace: 'garden-local',
    });
    expect(entry?.spec).toEqual({ bucketName: 'bucket', seedName: 'local' });
    expect(
      renderBackupEntry(
        exampleValues(undefined, (s) => delete s.spec.backup),
        { bucketName: 'b' },
      ),
    ).toBeUndefined();
  });

  it("the BackupEntry is controlled by the Shoot and carries the reconcile request and the shoot's purpose", () => {
    const entry = renderBackupEntry(
      exampleValues((s) => {
        s.spec.purpose = 'production';
        s.status = { ...s.status, uid: 'status-uid' } as typeof s.status;
      }),
      { bucketName: 'bucket', now },
    );
    expect(entry?.metadata?.name).toBe('shoot--local--local--status-uid');
    expect(entry?.metadata?.annotations).toEqual({ ...reconcile, 'shoot.gardener.cloud/purpose': 'production' });
    expect(entry?.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'core.gardener.cloud/v1beta1',
        kind: 'Shoot',
        name: 'local',
        uid: '0d5b5b84-2222-4a4a-8b8b-000000000002',
        blockOwnerDeletion: false,
        controller: true,
      },
    ]);
    expect(renderBackupEntry(values, { bucketName: 'bucket' })?.metadata?.annotations).toBeUndefined();
  });
});
