import { describe, expect, it } from 'vitest';
import { LastWrites, desiredHash, relevantHash } from './last-write.js';

const written = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'd', resourceVersion: '5', generation: 1, managedFields: [{ manager: 'a' }], labels: { app: 'd' } },
  spec: { replicas: 1, minReadySeconds: 0 },
  status: { replicas: 0 },
};

describe('relevantHash', () => {
  it('ignores status, resourceVersion, generation, managedFields and key order, not spec or labels', () => {
    const same = {
      status: { replicas: 3 },
      spec: { minReadySeconds: 0, replicas: 1 },
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: { labels: { app: 'd' }, name: 'd', resourceVersion: '9', generation: 2 },
    };
    expect(relevantHash(same)).toBe(relevantHash(written));
    expect(relevantHash({ ...written, spec: { ...written.spec, paused: true } })).not.toBe(relevantHash(written));
    expect(relevantHash({ ...written, metadata: { ...written.metadata, labels: {} } })).not.toBe(relevantHash(written));
  });
});

describe('LastWrites', () => {
  const d = desiredHash({ spec: { replicas: 1 } });

  it('knows nothing before a write and nothing for another desired object', () => {
    const lw = new LastWrites();
    expect(lw.check('k', d, written)).toBe('unknown');
    lw.remember('k', d, written);
    expect(lw.check('k', desiredHash({ spec: { replicas: 2 } }), written)).toBe('unknown');
    lw.forget('k');
    expect(lw.check('k', d, written)).toBe('unknown');
  });

  it('tells a status update (unchanged) from a nested field added by hand (drifted)', () => {
    const lw = new LastWrites();
    lw.remember('k', d, written);
    expect(lw.check('k', d, written)).toBe('unchanged');
    expect(
      lw.check('k', d, {
        ...written,
        metadata: { ...written.metadata, resourceVersion: '6' },
        status: { replicas: 1 },
      }),
    ).toBe('unchanged');
    expect(
      lw.check('k', d, {
        ...written,
        metadata: { ...written.metadata, resourceVersion: '7' },
        spec: { ...written.spec, paused: true },
      }),
    ).toBe('drifted');
  });
});
