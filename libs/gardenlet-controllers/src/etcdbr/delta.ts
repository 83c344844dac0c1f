// etcd-backup-restore's delta snapshots (`Incr-<first revision>-<last revision>-<unix>`), as pure functions: the
// watch events since the previous snapshot as etcd-backup-restore writes them — a JSON list of
// `{"etcdEvent": {"type", "kv"}, "time"}` (etcd's mvccpb.Event: type 0/omitted PUT, 1 DELETE; key and value base64)
// followed by the SHA-256 of the JSON — and their replay order: one transaction per revision, so that replaying them
// on the restored full snapshot gives every key its original revision.
import { createHash } from 'node:crypto';

/** One watch event of a delta snapshot. */
export interface DeltaEvent {
  type: 'PUT' | 'DELETE';
  key: Buffer;
  /** The value of a PUT. */
  value?: Buffer;
  /** The revision of the change. */
  modRevision: number;
  createRevision?: number;
  version?: number;
}

interface EncodedEvent {
  etcdEvent: {
    type?: number;
    kv: { key: string; value?: string; mod_revision: number; create_revision?: number; version?: number };
  };
  time: string;
}

/** A delta snapshot's content: the events as JSON and their SHA-256. */
export function encodeDeltaSnapshot(events: readonly DeltaEvent[], time: Date): Buffer {
  const encoded: EncodedEvent[] = events.map((e) => ({
    etcdEvent: {
      ...(e.type === 'DELETE' ? { type: 1 } : {}),
      kv: {
        key: e.key.toString('base64'),
        ...(e.value && e.value.length ? { value: e.value.toString('base64') } : {}),
        mod_revision: e.modRevision,
        ...(e.createRevision ? { create_revision: e.createRevision } : {}),
        ...(e.version ? { version: e.version } : {}),
      },
    },
    time: time.toISOString(),
  }));
  const json = Buffer.from(JSON.stringify(encoded));
  return Buffer.concat([json, createHash('sha256').update(json).digest()]);
}

/** The events of a delta snapshot; throws when its SHA-256 does not match or it is no event list. */
export function decodeDeltaSnapshot(data: Buffer): DeltaEvent[] {
  if (data.length < 32) throw new Error('delta snapshot too short');
  const json = data.subarray(0, data.length - 32);
  if (
    !createHash('sha256')
      .update(json)
      .digest()
      .equals(data.subarray(data.length - 32))
  )
    throw new Error('delta snapshot integrity check failed: SHA-256 mismatch');
  const parsed = JSON.parse(json.toString('utf8')) as EncodedEvent[];
  if (!Array.isArray(parsed)) throw new Error('delta snapshot is no list of events');
  return parsed.map((e) => {
    const kv = e.etcdEvent.kv;
    return {
      type: e.etcdEvent.type === 1 ? 'DELETE' : 'PUT',
      key: Buffer.from(kv.key, 'base64'),
      ...(e.etcdEvent.type === 1 ? {} : { value: Buffer.from(kv.value ?? '', 'base64') }),
      modRevision: Number(kv.mod_revision),
      ...(kv.create_revision ? { createRevision: Number(kv.create_revision) } : {}),
      ...(kv.version ? { version: Number(kv.version) } : {}),
    };
  });
}

/** The events grouped by revision, in revision order (each group is one transaction to replay). */
export function revisionGroups(events: readonly DeltaEvent[]): DeltaEvent[][] {
  const groups = new Map<number, DeltaEvent[]>();
  for (const e of events) groups.set(e.modRevision, [...(groups.get(e.modRevision) ?? []), e]);
  return [...groups.entries()].sort(([a], [b]) => a - b).map(([, g]) => g);
}
