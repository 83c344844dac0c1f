// The backup-restore sidecar's etcd client: etcd's v3 Maintenance.Snapshot stream over gRPC (the etcd3 client), with
// the client certificate of `--cacert/--cert/--key`. druid points the sidecar at `https://<etcd>-local:<port>`, a host
// alias of 127.0.0.1 in the Pod; local-mode Pods share the host's network and etcd listens on the Pod IP, so a
// `<name>-local` host is dialled at `$POD_IP` while TLS still verifies the name `<name>-local` (in the etcd server
// certificate's SANs). The member's leadership comes from Maintenance.Status.
import { readFile } from 'node:fs/promises';
import type { DeltaEvent } from './delta.js';

/** How to reach etcd. */
export interface EtcdConnection {
  /** etcd's client URLs (`--endpoints`). */
  endpoints: string[];
  caFile?: string;
  certFile?: string;
  keyFile?: string;
  /** The address `<name>-local` hosts resolve to (the Pod IP). */
  localAddress?: string;
}

/** One full snapshot as etcd streamed it. */
export interface StreamedSnapshot {
  /** The revision of the store at the snapshot (the stream's first header). */
  revision: number;
  /** The database followed by its SHA-256, as etcd sends it. */
  data: Buffer;
}

/** Applies events through a client: one transaction per revision; resolves with the revision reached. */
export async function applyEvents(
  client: { kv: { txn(req: object): Promise<{ header: { revision: string } }> } },
  groups: readonly DeltaEvent[][],
): Promise<number> {
  let revision = 0;
  for (const group of groups) {
    const res = await client.kv.txn({
      compare: [],
      success: group.map((e) =>
        e.type === 'PUT'
          ? { request_put: { key: e.key, value: e.value ?? Buffer.alloc(0) } }
          : { request_delete_range: { key: e.key } },
      ),
      failure: [],
    });
    revision = Number(res.header.revision);
  }
  return revision;
}

/** What the sidecar needs of etcd. */
export interface EtcdSnapshotSource {
  snapshot(timeoutMs: number): Promise<StreamedSnapshot>;
  /** The KV API (transactions). */
  readonly kv: { txn(req: object): Promise<{ header: { revision: string } }> };
  /** Whether the member dialled is the cluster's leader (only the leader's sidecar takes snapshots). */
  isLeader(): Promise<boolean>;
  /** Watches every key from `fromRevision` on; resolves with a function that cancels the watch. */
  watch(
    fromRevision: number,
    onEvents: (events: DeltaEvent[]) => void,
    onError: (err: Error) => void,
  ): Promise<() => Promise<void>>;
  close(): void;
}

/** An endpoint with `<name>-local` rewritten to the local address, and the TLS name to verify. */
export function dialTarget(endpoint: string, localAddress: string | undefined): { host: string; servername?: string } {
  const url = new URL(endpoint);
  if (localAddress && url.hostname.endsWith('-local')) {
    return { host: `${url.protocol}//${localAddress}:${url.port}`, servername: url.hostname };
  }
  return { host: endpoint };
}

/** Connects to etcd (lazily, as gRPC does). */
export async function connectEtcd(connection: EtcdConnection): Promise<EtcdSnapshotSource> {
  const { Etcd3 } = await import('etcd3');
  const targets = connection.endpoints.map((e) => dialTarget(e, connection.localAddress));
  const servername = targets.find((t) => t.servername)?.servername;
  const credentials =
    connection.caFile || connection.certFile
      ? {
          rootCertificate: (connection.caFile ? await readFile(connection.caFile) : null) as Buffer,
          ...(connection.certFile && connection.keyFile
            ? { certChain: await readFile(connection.certFile), privateKey: await readFile(connection.keyFile) }
            : {}),
        }
      : undefined;
  const client = new Etcd3({
    hosts: targets.map((t) => t.host),
    ...(credentials ? { credentials } : {}),
    dialTimeout: 5_000,
    grpcOptions: {
      'grpc.max_receive_message_length': -1,
      ...(servername ? { 'grpc.ssl_target_name_override': servername, 'grpc.default_authority': servername } : {}),
    },
  });
  return {
    kv: { txn: (req) => client.kv.txn(req as never) },
    close: () => client.close(),
    watch: async (fromRevision, onEvents, onError) => {
      const watcher = await client
        .watch()
        .inRange({ start: Buffer.from([0]), end: Buffer.from([0]) })
        .startRevision(String(fromRevision))
        .create();
      watcher.on('data', (res) => {
        const events = (res.events ?? []).map((e): DeltaEvent => ({
          type: e.type === 'Delete' ? 'DELETE' : 'PUT',
          key: Buffer.from(e.kv.key),
          ...(e.type === 'Delete' ? {} : { value: Buffer.from(e.kv.value ?? []) }),
          modRevision: Number(e.kv.mod_revision),
          ...(Number(e.kv.create_revision) ? { createRevision: Number(e.kv.create_revision) } : {}),
          ...(Number(e.kv.version) ? { version: Number(e.kv.version) } : {}),
        }));
        if (events.length) onEvents(events);
      });
      watcher.on('error', (err) => onError(err));
      return () => watcher.cancel();
    },
    isLeader: async () => {
      const status = await client.maintenance.status();
      return status.leader === status.header.member_id;
    },
    snapshot: async (timeoutMs) => {
      const stream = await client.maintenance.snapshot({ deadline: Date.now() + timeoutMs });
      return new Promise<StreamedSnapshot>((resolve, reject) => {
        const chunks: Buffer[] = [];
        let revision: number | undefined;
        stream.on('data', (res) => {
          if (revision === undefined && res.header?.revision !== undefined) revision = Number(res.header.revision);
          if (res.blob?.length) chunks.push(Buffer.from(res.blob));
        });
        stream.on('error', reject);
        stream.on('end', () => resolve({ revision: revision ?? 0, data: Buffer.concat(chunks) }));
      });
    },
  };
}
