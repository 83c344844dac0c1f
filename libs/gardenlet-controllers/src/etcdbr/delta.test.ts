// Delta snapshots: etcd-backup-restore's event list with its SHA-256, and the replay order (one group per revision).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeDeltaSnapshot, encodeDeltaSnapshot, revisionGroups, type DeltaEvent } from './delta.js';

const eventArb: fc.Arbitrary<DeltaEvent> = fc.oneof(
  fc.record({
    type: fc.constant<'PUT'>('PUT'),
    key: fc.uint8Array({ minLength: 1, maxLength: 16 }).map((b) => Buffer.from(b)),
    value: fc.uint8Array({ minLength: 1, maxLength: 32 }).map((b) => Buffer.from(b)),
    modRevision: fc.integer({ min: 1, max: 1e9 }),
    createRevision: fc.integer({ min: 1, max: 1e9 }),
    version: fc.integer({ min: 1, max: 1000 }),
  }),
  fc.record({
    type: fc.constant<'DELETE'>('DELETE'),
    key: fc.uint8Array({ minLength: 1, maxLength: 16 }).map((b) => Buffer.from(b)),
    modRevision: fc.integer({ min: 1, max: 1e9 }),
  }),
);

describe('delta snapshots', () => {
  it('decode what they encode', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 20 }), (events) => {
        expect(decodeDeltaSnapshot(encodeDeltaSnapshot(events, new Date(0)))).toEqual(events);
      }),
    );
  });

  it("write etcd-backup-restore's event JSON: PUT without a type, DELETE type 1, base64 bytes", () => {
    const data = encodeDeltaSnapshot(
      [
        { type: 'PUT', key: Buffer.from('/a'), value: Buffer.from('1'), modRevision: 7, createRevision: 7, version: 1 },
        { type: 'DELETE', key: Buffer.from('/b'), modRevision: 8 },
      ],
      new Date('2026-01-01T00:00:00Z'),
    );
    expect(JSON.parse(data.subarray(0, data.length - 32).toString())).toEqual([
      {
        etcdEvent: { kv: { key: 'L2E=', value: 'MQ==', mod_revision: 7, create_revision: 7, version: 1 } },
        time: '2026-01-01T00:00:00.000Z',
      },
      { etcdEvent: { type: 1, kv: { key: 'L2I=', mod_revision: 8 } }, time: '2026-01-01T00:00:00.000Z' },
    ]);
    data[3] ^= 1;
    expect(() => decodeDeltaSnapshot(data)).toThrow(/SHA-256 mismatch/);
  });

  it('groups events by revision, in revision order, keeping every event', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 30 }), (events) => {
        const groups = revisionGroups(events);
        expect(groups.flat()).toHaveLength(events.length);
        for (const g of groups) expect(new Set(g.map((e) => e.modRevision)).size).toBe(1);
        const revisions = groups.map((g) => g[0]!.modRevision);
        expect(revisions).toEqual([...revisions].sort((a, b) => a - b));
      }),
    );
  });
});
