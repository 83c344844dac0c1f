import { describe, expect, it } from 'vitest';
import { decodeProtobufObject, formatDuration, PROTOBUF_MAGIC, protoPackage, protoRoot } from './protobuf.js';

const root = protoRoot();

/** What client-go sends: `k8s\0` + runtime.Unknown{typeMeta, raw}. */
function envelope(apiVersion: string, kind: string, object: Record<string, unknown>): Buffer {
  const type = root.lookupType(`${protoPackage(apiVersion, kind)}.${kind}`);
  const raw = type.encode(type.fromObject(object)).finish();
  const unknown = root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');
  const body = unknown.encode(unknown.fromObject({ typeMeta: { apiVersion, kind }, raw, contentEncoding: '', contentType: '' })).finish();
  return Buffer.concat([PROTOBUF_MAGIC, body]);
}

const ZERO_TIME = { seconds: -62135596800, nanos: 0 };

describe('decodeProtobufObject', () => {
  it('maps apiVersions to proto packages', () => {
    expect(protoPackage('v1')).toBe('k8s.io.api.core.v1');
    expect(protoPackage('apps/v1')).toBe('k8s.io.api.apps.v1');
    expect(protoPackage('rbac.authorization.k8s.io/v1')).toBe('k8s.io.api.rbac.v1');
    expect(protoPackage('authorization.k8s.io/v1')).toBe('k8s.io.api.authorization.v1');
    expect(protoPackage('meta.k8s.io/v1')).toBe('k8s.io.apimachinery.pkg.apis.meta.v1');
    expect(protoPackage('v1', 'DeleteOptions')).toBe('k8s.io.apimachinery.pkg.apis.meta.v1');
  });

  it('decodes a ConfigMap', () => {
    const body = envelope('v1', 'ConfigMap', {
      metadata: { name: 'c', namespace: 'pb', labels: { app: 'x' }, creationTimestamp: ZERO_TIME },
      data: { a: 'b' },
      binaryData: { bin: Buffer.from([0, 1, 2]) },
      immutable: false,
    });
    expect(decodeProtobufObject(body)).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', namespace: 'pb', labels: { app: 'x' }, creationTimestamp: null },
      data: { a: 'b' },
      binaryData: { bin: 'AAEC' },
      immutable: false,
    });
  });

  it('decodes meta DeleteOptions and formats durations like Go', () => {
    const body = envelope('meta.k8s.io/v1', 'DeleteOptions', { propagationPolicy: 'Foreground', gracePeriodSeconds: 30, dryRun: [] });
    expect(decodeProtobufObject(body)).toEqual({ apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions', propagationPolicy: 'Foreground', gracePeriodSeconds: 30 });
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(1.5e9)).toBe('1.5s');
    expect(formatDuration(3723e9)).toBe('1h2m3s');
    expect(formatDuration(150e6)).toBe('150ms');
  });

  it('answers 415 for kinds without a proto and for non-envelope bodies', () => {
    const unknown = root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');
    const body = Buffer.concat([PROTOBUF_MAGIC, unknown.encode({ typeMeta: { apiVersion: 'example.com/v1', kind: 'Widget' }, raw: new Uint8Array() }).finish()]);
    expect(() => decodeProtobufObject(body)).toThrow(/unknown format/);
    expect(() => decodeProtobufObject(Buffer.from('{}'))).toThrow(/unknown format/);
  });
});
