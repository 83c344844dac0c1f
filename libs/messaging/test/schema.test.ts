import { mkdtemp, cp, rm, appendFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_DIR, PROTO_DIR, generateSchemas } from '../scripts/generate-schemas.js';
import {
  CodecError,
  codecFor,
  decodeEnvelope,
  encodeEnvelope,
  fromTimestamp,
  isPayload,
  toTimestamp,
  type Envelope,
  type MessageInput,
} from '../src/index.js';

const metadata = {
  id: '5b1f',
  time: toTimestamp(new Date('2026-11-23T10:00:00.123Z')),
  source: 'gardenlet',
  seed: 'seed-a',
  object: { kind: 'Shoot', namespace: 'garden-dev', name: 'alpha', uid: 'u-1' },
  generation: 7,
};

const payloads: MessageInput<Envelope>[] = [
  {
    operationProgress: {
      type: 'LAST_OPERATION_TYPE_RECONCILE',
      state: 'LAST_OPERATION_STATE_PROCESSING',
      progress: 42,
      description: 'Deploying the control plane',
      flow: 'Shoot cluster reconciliation',
      task: {
        id: 'Deploying Kubernetes API server',
        phase: 'TASK_PHASE_FAILED',
        error: 'timeout',
        errorCodes: ['ERR_INFRA_DEPENDENCIES'],
        durationMillis: 9_000_000_000,
      },
    },
  },
  {
    conditionTransition: {
      type: 'APIServerAvailable',
      oldStatus: 'CONDITION_STATUS_TRUE',
      newStatus: 'CONDITION_STATUS_PROGRESSING',
      reason: 'HealthzRequestFailed',
      message: 'healthz answered 500',
      codes: [],
    },
  },
  {
    schedulingDecision: {
      seed: 'seed-a',
      candidates: [
        { seed: 'seed-a', region: 'eu-1' },
        { seed: 'seed-b', region: 'us-1', rejectionReason: 'region too far' },
      ],
      reason: 'MinimalDistance',
    },
  },
  {
    heartbeat: {
      component: 'gardenlet',
      identity: 'gardenlet-7d9f',
      lease: { namespace: 'garden', name: 'gardenlet-seed-a' },
      renewTime: toTimestamp(new Date('2026-11-23T10:00:01Z')),
      leaseDurationSeconds: 40,
      version: '1.2.3',
    },
  },
  {
    wakeUp: {
      target: { kind: 'WorkerPool', namespace: 'shoot--dev--alpha', name: 'pool-a' },
      reason: 'OperatingSystemConfigChanged',
    },
  },
];

describe('envelope codec', () => {
  for (const payload of payloads) {
    const kind = Object.keys(payload)[0] as keyof Envelope;
    it(`round-trips ${kind}, filling proto3 defaults`, () => {
      const decoded = decodeEnvelope(encodeEnvelope({ metadata, ...payload }));
      expect(decoded.payload).toBe(kind);
      expect(decoded.metadata).toEqual(metadata);
      expect(decoded[kind]).toMatchObject(payload[kind] as object);
      expect(isPayload(decoded, kind as 'heartbeat')).toBe(true);
    });
  }

  it('decodes absent scalars as defaults and absent messages as missing, not null', () => {
    const decoded = decodeEnvelope(encodeEnvelope({ metadata: { id: 'x' }, wakeUp: {} }));
    expect(decoded.metadata).toEqual({ id: 'x', source: '', seed: '', generation: 0 });
    expect(decoded.wakeUp).toEqual({ reason: '' });
    const decision = decodeEnvelope(encodeEnvelope({ metadata: { id: 'x' }, schedulingDecision: { seed: 'a' } }));
    expect(decision.schedulingDecision?.candidates).toEqual([]);
  });

  it('keeps timestamps to the millisecond', () => {
    const date = new Date('2026-11-23T10:00:00.987Z');
    expect(fromTimestamp(toTimestamp(date))).toEqual(date);
    expect(() => toTimestamp(new Date('garbage'))).toThrow('invalid date');
  });

  it.each([
    [
      { metadata: { generation: 'seven' } },
      'gardener.v1.Envelope.metadata.generation: expected an integer, got "seven"',
    ],
    [{ metadata: { id: 5 } }, 'gardener.v1.Envelope.metadata.id: expected a string, got number 5'],
    [{ operationProgress: { state: 'Processing' } }, '"Processing" is not a value of LastOperationState'],
    [{ operationProgress: { progress: 2 ** 40 } }, 'progress: 1099511627776 does not fit int32'],
    [{ metadata: { colour: 'red' } }, 'gardener.v1.Envelope.metadata.colour: no such field'],
    [{ heartbeat: {}, wakeUp: {} }, 'heartbeat and wakeUp are both set, but only one member of payload may be'],
    [{ schedulingDecision: { candidates: [{ seed: 1 }] } }, 'schedulingDecision.candidates[0].seed: expected a string'],
    [{ schedulingDecision: { candidates: {} } }, 'candidates: expected a list, got an object'],
    [{ metadata: null }, 'metadata: expected an object, got null'],
  ])('refuses to encode %j', (value, message) => {
    expect(() => encodeEnvelope(value as MessageInput<Envelope>)).toThrow(CodecError);
    expect(() => encodeEnvelope(value as MessageInput<Envelope>)).toThrow(message);
  });

  it('refuses garbage bytes with a clear error', () => {
    expect(() => decodeEnvelope(new TextEncoder().encode('{"not":"protobuf"}'))).toThrow(
      /cannot decode gardener.v1.Envelope from 18 bytes: index out of range/,
    );
    expect(() => decodeEnvelope(new Uint8Array([0xff, 0xff, 0xff]))).toThrow(CodecError);
    // Valid protobuf, but not an envelope of ours.
    expect(() => decodeEnvelope(new Uint8Array())).toThrow('not a gardener.v1.Envelope: 0 bytes without metadata');
    expect(() => decodeEnvelope(encodeEnvelope({ metadata: { id: 'x' } }))).toThrow('without payload');
  });

  it('offers a codec for each message type by its protobuf name', () => {
    const codec = codecFor('gardener.v1.Heartbeat');
    expect(codec.decode(codec.encode({ component: 'gardenlet', identity: 'a' }))).toMatchObject({
      component: 'gardenlet',
      identity: 'a',
    });
  });
});

describe('generated schemas', () => {
  it('match the .proto files (run `npm run generate -w @gardener-ts/messaging` when this fails)', async () => {
    const { descriptor, types } = generateSchemas();
    expect(await readFile(join(GENERATED_DIR, 'descriptor.json'), 'utf8')).toBe(descriptor);
    expect(await readFile(join(GENERATED_DIR, 'types.ts'), 'utf8')).toBe(types);
  });

  it('change when a .proto file changes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gardener-ts-proto-'));
    try {
      await cp(PROTO_DIR, dir, { recursive: true });
      await appendFile(join(dir, 'gardener', 'v1', 'wakeup.proto'), '\nmessage Extra {\n  string field = 1;\n}\n');
      const changed = generateSchemas(dir);
      expect(changed.types).toContain('export interface Extra {');
      expect(changed.descriptor).not.toBe(generateSchemas().descriptor);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
