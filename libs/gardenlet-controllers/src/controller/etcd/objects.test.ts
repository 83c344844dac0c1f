// The objects of an Etcd as Gardener's etcd component writes it (renderEtcd for the example Shoot): the StatefulSet
// runs etcd with TLS from the referenced Secrets on the Pod IP, the Services select its Pods, all owned by the Etcd.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderEtcd } from '../../component/etcd.js';
import type { ShootSecretNames } from '../../component/secrets.js';
import { exampleValues } from '../../component/testdata/fixtures.js';
import type { EtcdResource } from './kinds.js';
import {
  backupRestoreArgs,
  DefaultBackupRestoreImage,
  DefaultEtcdImage,
  etcdArgs,
  etcdImage,
  etcdObjects,
  imageRepository,
  quotaBytes,
  selectorLabels,
  storageProvider,
} from './objects.js';

const names: ShootSecretNames = {
  secrets: {
    'etcd-server-main': 'etcd-server-main-4a1c2b3d',
    'etcd-server-events': 'etcd-server-events-5e6f7a8b',
    'etcd-client': 'etcd-client-9c0d1e2f',
  },
  bundles: { 'ca-etcd': 'ca-etcd-bundle-1f2e3d4c' },
};

/** etcd-main of the example shoot as the gardenlet writes it, as the API server returns it (uid, generation). */
function etcdMain(mutate?: (etcd: EtcdResource) => void, shoot = exampleValues()): EtcdResource {
  const etcd = renderEtcd(shoot, 'main', names, { now: '2026-01-01T00:00:00Z' }) as unknown as EtcdResource;
  etcd.metadata = { ...etcd.metadata, uid: '7d3f0a52-1111-4b4b-9c9c-000000000001', generation: 1 };
  mutate?.(etcd);
  return etcd;
}

type Container = {
  name: string;
  image: string;
  command: string[];
  args: string[];
  env: { name: string }[];
  volumeMounts: { name: string; mountPath: string }[];
  readinessProbe: { httpGet: { port: number; path: string } };
};
type PodSpec = {
  containers: Container[];
  volumes: { name: string; secret?: { secretName: string }; emptyDir?: object }[];
  priorityClassName?: string;
};
type StatefulSetSpec = {
  replicas: number;
  serviceName: string;
  selector: { matchLabels: Record<string, string> };
  template: { metadata: { labels: Record<string, string>; annotations?: Record<string, string> }; spec: PodSpec };
  volumeClaimTemplates?: { metadata: { name: string }; spec: { resources: { requests: { storage: string } } } }[];
};
const stsSpec = (etcd: EtcdResource, persistentVolumes = true) =>
  (etcdObjects(etcd, etcdImage(etcd), { persistentVolumes }).statefulSet as unknown as { spec: StatefulSetSpec }).spec;
const flag = (args: string[], name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

describe('the objects of an Etcd', () => {
  it('runs etcd-main of the example shoot with client TLS from the secrets manager Secrets, on the Pod IP', () => {
    const etcd = etcdMain();
    const spec = stsSpec(etcd);
    expect(spec.replicas).toBe(1);
    expect(spec.serviceName).toBe('etcd-main-peer');
    const container = spec.template.spec.containers[0]!;
    expect(container.image).toBe(DefaultEtcdImage);
    expect(container.command).toEqual(['etcd']);
    const args = container.args;
    expect(flag(args, 'listen-client-urls')).toBe('https://$(POD_IP):2379');
    expect(flag(args, 'listen-peer-urls')).toBe('http://$(POD_IP):2380');
    expect(flag(args, 'initial-cluster')).toBe(
      'etcd-main-0=http://etcd-main-0.etcd-main-peer.shoot--local--local.svc:2380',
    );
    expect(flag(args, 'initial-advertise-peer-urls')).toBe(
      'http://$(POD_NAME).etcd-main-peer.shoot--local--local.svc:2380',
    );
    expect(flag(args, 'quota-backend-bytes')).toBe(String(8 * 1024 ** 3));
    expect(flag(args, 'auto-compaction-mode')).toBe('periodic');
    expect(flag(args, 'auto-compaction-retention')).toBe('30m');
    expect(flag(args, 'metrics')).toBe('extensive');
    expect(flag(args, 'client-cert-auth')).toBe('true');
    expect(flag(args, 'trusted-ca-file')).toBe('/var/etcd/ssl/client/ca/bundle.crt');
    expect(flag(args, 'cert-file')).toBe('/var/etcd/ssl/client/server/tls.crt');
    expect(flag(args, 'data-dir')).toBe('/var/etcd/data/new.etcd');
    expect(args.some((a) => a.includes('127.0.0.1'))).toBe(false);
    expect(container.env.map((e) => e.name)).toEqual(['POD_NAME', 'POD_NAMESPACE', 'POD_IP']);
    expect(container.readinessProbe.httpGet).toMatchObject({ path: '/health', port: 2381 });

    const secrets = Object.fromEntries(
      spec.template.spec.volumes.filter((v) => v.secret).map((v) => [v.name, v.secret!.secretName]),
    );
    expect(secrets).toEqual({
      'client-url-ca-etcd': 'ca-etcd-bundle-1f2e3d4c',
      'client-url-etcd-server-tls': 'etcd-server-main-4a1c2b3d',
      'client-url-etcd-client-tls': 'etcd-client-9c0d1e2f',
    });
    expect(container.volumeMounts.map((m) => m.mountPath)).toContain('/var/etcd/data');
    expect(spec.volumeClaimTemplates?.map((c) => c.metadata.name)).toEqual(['main-etcd']);
    expect(spec.volumeClaimTemplates?.[0]?.spec.resources.requests.storage).toBe('10Gi');
    expect(spec.template.spec.priorityClassName).toBe('gardener-system-500');
    expect(spec.template.metadata.annotations).toEqual({ 'cluster-autoscaler.kubernetes.io/safe-to-evict': 'false' });
    expect(spec.template.metadata.labels).toMatchObject({ role: 'main', app: 'etcd-statefulset' });
  });

  it('puts the data on an emptyDir when members get no PersistentVolumeClaims', () => {
    const spec = stsSpec(etcdMain(), false);
    expect(spec.volumeClaimTemplates).toBeUndefined();
    expect(spec.template.spec.volumes.find((v) => v.name === 'main-etcd')?.emptyDir).toEqual({});
  });

  it('has 0 replicas for a hibernated shoot and 3 members for a highly available control plane', () => {
    const hibernated = exampleValues((s) => (s.spec.hibernation = { enabled: true }));
    expect(stsSpec(etcdMain(undefined, hibernated)).replicas).toBe(0);
    const ha = exampleValues(
      (s) => (s.spec.controlPlane = { highAvailability: { failureTolerance: { type: 'zone' } } }),
    );
    const etcd = etcdMain(undefined, ha);
    expect(stsSpec(etcd).replicas).toBe(3);
    expect(
      flag(etcdArgs(etcd), 'initial-cluster')!
        .split(',')
        .map((m) => m.split('=')[0]),
    ).toEqual(['etcd-main-0', 'etcd-main-1', 'etcd-main-2']);
  });

  it('adds peer TLS when the Etcd asks for it', () => {
    const etcd = etcdMain((e) => {
      e.spec.etcd.peerUrlTls = {
        tlsCASecretRef: { name: 'ca-etcd-peer-bundle', dataKey: 'bundle.crt' },
        serverTLSSecretRef: { name: 'etcd-peer-server' },
      };
    });
    const args = etcdArgs(etcd);
    expect(flag(args, 'listen-peer-urls')).toBe('https://$(POD_IP):2380');
    expect(flag(args, 'peer-trusted-ca-file')).toBe('/var/etcd/ssl/peer/ca/bundle.crt');
    expect(flag(args, 'peer-client-cert-auth')).toBe('true');
    const volumes = stsSpec(etcd).template.spec.volumes.map((v) => v.name);
    expect(volumes).toEqual(expect.arrayContaining(['peer-url-ca-etcd', 'peer-url-etcd-server-tls']));
  });

  it('serves clients on <name>-client (without the backup-restore port) and peers on the headless <name>-peer', () => {
    const etcd = etcdMain();
    const { clientService, peerService, statefulSet } = etcdObjects(etcd, DefaultEtcdImage, {
      persistentVolumes: true,
    });
    const client = clientService as unknown as { metadata: { name: string }; spec: Record<string, any> };
    expect(client.metadata.name).toBe('etcd-main-client');
    expect(client.spec.ports.map((p: { port: number }) => p.port)).toEqual([2379, 2380]);
    expect(client.spec.selector).toEqual(selectorLabels(etcd));
    const peer = peerService as unknown as { metadata: { name: string }; spec: Record<string, any> };
    expect(peer.metadata.name).toBe('etcd-main-peer');
    expect(peer.spec).toMatchObject({ clusterIP: 'None', publishNotReadyAddresses: true });
    for (const obj of [clientService, peerService, statefulSet]) {
      expect(obj.metadata?.ownerReferences).toEqual([
        expect.objectContaining({ kind: 'Etcd', name: 'etcd-main', uid: etcd.metadata!.uid, controller: true }),
      ]);
      expect(obj.metadata?.namespace).toBe('shoot--local--local');
    }
    // The selector matches the Pods.
    const sts = statefulSet as unknown as { spec: StatefulSetSpec };
    expect(sts.spec.template.metadata.labels).toMatchObject(sts.spec.selector.matchLabels);
  });

  it('uses the Etcd image when it runs plain etcd, the default for any other', () => {
    expect(etcdImage(etcdMain((e) => (e.spec.etcd.image = 'quay.io/coreos/etcd:v3.5.17')))).toBe(
      'quay.io/coreos/etcd:v3.5.17',
    );
    expect(
      etcdImage(
        etcdMain(
          (e) => (e.spec.etcd.image = 'europe-docker.pkg.dev/gardener-project/public/gardener/etcd-wrapper:v0.4'),
        ),
      ),
    ).toBe(DefaultEtcdImage);
    expect(imageRepository('localhost:5000/etcd:3.5@sha256:abc')).toBe('localhost:5000/etcd');
    expect(imageRepository('localhost:5000/etcd')).toBe('localhost:5000/etcd');
  });

  it('turns any binary quota into its bytes and refuses a bad one naming the field', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1 << 20 }), fc.constantFrom('Ki', 'Mi', 'Gi'), (n, unit) => {
        const factor = { Ki: 1024n, Mi: 1024n ** 2n, Gi: 1024n ** 3n }[unit]!;
        expect(quotaBytes(etcdMain((e) => (e.spec.etcd.quota = `${n}${unit}`)))).toBe((BigInt(n) * factor).toString());
      }),
    );
    expect(() => quotaBytes(etcdMain((e) => (e.spec.etcd.quota = 'lots')))).toThrow(
      'spec.etcd.quota of Etcd shoot--local--local/etcd-main: invalid lots',
    );
  });
});

describe('the backup-restore sidecar of an Etcd with a backup store', () => {
  const backup = {
    provider: 'local',
    secretRefName: 'etcd-backup',
    container: 'bucket-uid',
    prefix: 'shoot--local--local--uid',
  };
  const withStore = () => {
    const etcd = renderEtcd(exampleValues(), 'main', names, {
      now: '2026-01-01T00:00:00Z',
      backup,
    }) as unknown as EtcdResource;
    etcd.metadata = { ...etcd.metadata, uid: 'uid-1', generation: 1 };
    return etcd;
  };
  type FullPodSpec = PodSpec & {
    initContainers?: Container[];
    volumes: { name: string; hostPath?: { path: string; type: string } }[];
  };
  const podSpec = (etcd: EtcdResource) =>
    (
      etcdObjects(etcd, etcdImage(etcd), { persistentVolumes: true, backupHostPath: '/var/backups' })
        .statefulSet as unknown as { spec: { template: { spec: FullPodSpec } } }
    ).spec.template.spec;

  it('has no sidecar, init container or backup port without a store', () => {
    const etcd = etcdMain();
    const spec = podSpec(etcd);
    expect(spec.containers.map((c) => c.name)).toEqual(['etcd']);
    expect(spec.initContainers).toBeUndefined();
    const service = etcdObjects(etcd, etcdImage(etcd), { persistentVolumes: true }).clientService as unknown as {
      spec: { ports: { name: string }[] };
    };
    expect(service.spec.ports.map((p) => p.name)).toEqual(['client', 'server']);
  });

  it("runs druid's backup-restore sidecar and an initializing init container on the bucket's host directory", () => {
    const etcd = withStore();
    const spec = podSpec(etcd);
    expect(spec.containers.map((c) => c.name)).toEqual(['etcd', 'backup-restore']);
    const sidecar = spec.containers[1]!;
    expect(sidecar.image).toBe(DefaultBackupRestoreImage);
    expect(sidecar.args[0]).toBe('server');
    expect(flag(sidecar.args, 'storage-provider')).toBe('Local');
    expect(flag(sidecar.args, 'store-prefix')).toBe('shoot--local--local--uid/etcd-main');
    expect(flag(sidecar.args, 'schedule')).toBe('0 */24 * * *');
    expect(flag(sidecar.args, 'delta-snapshot-period')).toBe('5m0s');
    expect(flag(sidecar.args, 'garbage-collection-policy')).toBe('Exponential');
    expect(flag(sidecar.args, 'max-backups')).toBeUndefined();
    expect(flag(sidecar.args, 'compress-snapshots')).toBe('true');
    expect(flag(sidecar.args, 'compression-policy')).toBe('gzip');
    expect(flag(sidecar.args, 'endpoints')).toBe('https://etcd-main-local:2379');
    expect(flag(sidecar.args, 'cacert')).toBe('/var/etcd/ssl/client/ca/bundle.crt');
    expect(flag(sidecar.args, 'cert')).toBe('/var/etcd/ssl/client/client/tls.crt');
    expect(flag(sidecar.args, 'server-cert')).toBe('/var/etcdbr/ssl/server/tls.crt');
    expect(flag(sidecar.args, 'data-dir')).toBe('/var/etcd/data/new.etcd');
    expect(flag(sidecar.args, 'server-port')).toBe('8080');
    expect(sidecar.env).toContainEqual({ name: 'STORAGE_CONTAINER', value: '/home/nonroot/bucket-uid' });
    expect(sidecar.volumeMounts).toContainEqual({ name: 'local-backup', mountPath: '/home/nonroot/bucket-uid' });
    expect(sidecar.volumeMounts).toContainEqual({ name: 'main-etcd', mountPath: '/var/etcd/data' });
    const init = spec.initContainers![0]!;
    expect(init.name).toBe('backup-restore-initialize');
    expect(init.args).toEqual([
      'initialize',
      '--storage-provider=Local',
      '--store-prefix=shoot--local--local--uid/etcd-main',
      '--data-dir=/var/etcd/data/new.etcd',
    ]);
    expect(spec.volumes).toContainEqual({
      name: 'local-backup',
      hostPath: { path: '/var/backups/bucket-uid', type: 'Directory' },
    });
    const service = etcdObjects(etcd, etcdImage(etcd), { persistentVolumes: true, backupHostPath: '/x' })
      .clientService as unknown as { spec: { ports: { name: string; port: number }[] } };
    expect(service.spec.ports).toContainEqual({ name: 'backuprestore', protocol: 'TCP', port: 8080, targetPort: 8080 });
  });

  it('renders LimitBased garbage collection with its limit and refuses stores without a local counterpart', () => {
    const etcd = withStore();
    etcd.spec.backup.garbageCollectionPolicy = 'LimitBased';
    etcd.spec.backup.maxBackupsLimitBasedGC = 3;
    expect(flag(backupRestoreArgs(etcd), 'max-backups')).toBe('3');
    expect(storageProvider(etcd)).toBe('Local');
    etcd.spec.backup.store!.provider = 'aws';
    expect(storageProvider(etcd)).toBe('S3');
    expect(() => podSpec(etcd)).toThrow(/storage provider S3 has no local counterpart/);
    etcd.spec.backup.store!.provider = 'floppy';
    expect(() => storageProvider(etcd)).toThrow(/unsupported storage provider "floppy"/);
  });
});
