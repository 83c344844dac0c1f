// etcdbrctl's flags as druid renders them for an Etcd with a Local store, read back by the local etcdbrctl; and the
// built-in image map running druid's etcd-backup-restore image as `gardener-local etcdbrctl`.
import { builtinImageMap } from '@gardener-ts/local-cluster';
import { describe, expect, it } from 'vitest';
import { renderEtcd } from '../component/etcd.js';
import { exampleValues } from '../component/testdata/fixtures.js';
import type { EtcdResource } from '../controller/etcd/kinds.js';
import {
  backupRestoreArgs,
  backupRestoreInitializeArgs,
  DefaultBackupRestoreImage,
} from '../controller/etcd/objects.js';
import { parseEtcdbrctlArgs } from './command.js';

const etcd = () => {
  const e = renderEtcd(
    exampleValues(),
    'main',
    { secrets: { 'etcd-server-main': 's', 'etcd-client': 'c' }, bundles: { 'ca-etcd': 'ca' } },
    {
      now: '2026-01-01T00:00:00Z',
      backup: { provider: 'local', secretRefName: 'etcd-backup', container: 'bucket', prefix: 'entry' },
    },
  ) as unknown as EtcdResource;
  e.metadata = { ...e.metadata, uid: 'u' };
  return e;
};

describe('etcdbrctl flags', () => {
  it("reads druid's sidecar flags: the store below STORAGE_CONTAINER, schedule, GC, gzip, TLS, port", () => {
    const settings = parseEtcdbrctlArgs(backupRestoreArgs(etcd()), { STORAGE_CONTAINER: '/home/nonroot/bucket' });
    expect(settings).toMatchObject({
      command: 'server',
      storeDirectory: '/home/nonroot/bucket/entry/etcd-main/v2',
      dataDir: '/var/etcd/data/new.etcd',
      endpoints: ['https://etcd-main-local:2379'],
      caFile: '/var/etcd/ssl/client/ca/bundle.crt',
      schedule: '0 */24 * * *',
      deltaSnapshotPeriodMs: 300_000,
      garbageCollectionPolicy: 'Exponential',
      garbageCollectionPeriodMs: 12 * 3600_000,
      compressionSuffix: '.gz',
      port: 8080,
      serverCertFile: '/var/etcdbr/ssl/server/tls.crt',
      snapshotTimeoutMs: 15 * 60_000,
    });
    expect(settings.ignored).toEqual(['--insecure-transport', '--insecure-skip-tls-verify', '--service-endpoints']);
  });

  it("reads the init container's flags", () => {
    const settings = parseEtcdbrctlArgs(backupRestoreInitializeArgs(etcd()), { STORAGE_CONTAINER: '/b' });
    expect(settings).toMatchObject({ command: 'initialize', storeDirectory: '/b/entry/etcd-main/v2' });
  });

  it('refuses other providers, unknown commands and bad values, naming them', () => {
    expect(() => parseEtcdbrctlArgs(['server', '--storage-provider=S3'])).toThrow(/storage provider "S3"/);
    expect(() => parseEtcdbrctlArgs(['snapshot'])).toThrow(/unknown command "snapshot"/);
    expect(() => parseEtcdbrctlArgs(['server', '--garbage-collection-period=soon'])).toThrow(
      /--garbage-collection-period: invalid duration "soon"/,
    );
    expect(() => parseEtcdbrctlArgs(['server', '--max-backups=0'])).toThrow(/--max-backups/);
  });

  it("runs druid's etcd-backup-restore image as gardener-local's etcdbrctl program", () => {
    for (const image of [
      DefaultBackupRestoreImage,
      'europe-docker.pkg.dev/gardener-project/public/gardener/etcdbrctl:v0.30.1',
    ]) {
      const resolved = builtinImageMap({ workspace: '/ws', node: '/node', nodeFlags: [] }).resolve(image);
      expect(resolved?.command).toEqual(['/node', '/ws/dist/tools/gardener-local/images/etcdbrctl.js']);
    }
  });
});
