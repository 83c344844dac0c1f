// Replaying delta snapshots onto a restored full snapshot, as etcd-backup-restore does with an embedded etcd: a
// temporary one-member etcd (the etcd binary, on free ports of `host`) starts on the staging data dir, every revision
// of the deltas is applied as one transaction (so keys get their original revisions back), and the result is taken
// as an etcd snapshot again: the staging dir keeps only that database (consistent index reset), not the temporary
// member's WAL, so the real member bootstraps on it as on a restored full snapshot.
import { spawn } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
import { inspectDatabase, resetConsistentIndex, verifySnapshotHash } from './bbolt.js';
import { revisionGroups, type DeltaEvent } from './delta.js';
import { applyEvents, connectEtcd } from './etcd.js';

/** The etcd binary of the Debian etcd-server package. */
export const DefaultEtcdBinary = '/usr/bin/etcd';

function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Replays `events` onto the database at `dbFile` of the data dir `dataDir` (consistent index already reset); resolves
 * with the revision reached. The data dir afterwards holds only the new database.
 */
export async function replayDeltas(
  dataDir: string,
  dbFile: string,
  events: readonly DeltaEvent[],
  options: { etcdBinary?: string; host?: string; timeoutMs?: number } = {},
): Promise<number> {
  const host = options.host ?? '127.0.0.1';
  const [clientPort, peerPort] = [await freePort(host), await freePort(host)];
  const client = `http://${host}:${clientPort}`;
  const peer = `http://${host}:${peerPort}`;
  const etcd = spawn(
    options.etcdBinary ?? DefaultEtcdBinary,
    [
      '--name=restore',
      `--data-dir=${dataDir}`,
      `--listen-client-urls=${client}`,
      `--advertise-client-urls=${client}`,
      `--listen-peer-urls=${peer}`,
      `--initial-advertise-peer-urls=${peer}`,
      `--initial-cluster=restore=${peer}`,
      '--initial-cluster-state=new',
      '--quota-backend-bytes=8589934592',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let output = '';
  etcd.stderr.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => etcd.once('exit', () => resolve()));
  const source = await connectEtcd({ endpoints: [client] });
  try {
    const deadline = Date.now() + (options.timeoutMs ?? 30_000);
    for (;;) {
      if (etcd.exitCode !== null) throw new Error(`the temporary etcd exited: ${output}`);
      if (await source.isLeader().catch(() => false)) break;
      if (Date.now() > deadline) throw new Error(`the temporary etcd did not start: ${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const revision = await applyEvents(source, revisionGroups(events));
    const db = Buffer.from(verifySnapshotHash((await source.snapshot(options.timeoutMs ?? 30_000)).data));
    inspectDatabase(db);
    resetConsistentIndex(db);
    source.close();
    etcd.kill('SIGTERM');
    await exited;
    await rm(dataDir, { recursive: true, force: true });
    await mkdir(dirname(dbFile), { recursive: true, mode: 0o700 });
    await writeFile(dbFile, db, { mode: 0o600 });
    return revision;
  } finally {
    source.close();
    if (etcd.exitCode === null) {
      etcd.kill('SIGKILL');
      await exited;
    }
  }
}
