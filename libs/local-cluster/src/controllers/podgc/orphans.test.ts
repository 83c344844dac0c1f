import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrphanQuarantineMs, orphanVerdict } from './orphans.js';

describe('orphanVerdict', () => {
  it('keeps a pod that is not bound or whose node exists', () => {
    expect(orphanVerdict(undefined, false, undefined, 0)).toEqual({ kind: 'keep' });
    expect(orphanVerdict('n1', true, 5, 1_000_000)).toEqual({ kind: 'keep' });
  });

  it('waits the whole quarantine from the first time the node is seen missing', () => {
    expect(orphanVerdict('n1', false, undefined, 1000)).toEqual({
      kind: 'wait',
      since: 1000,
      afterMs: OrphanQuarantineMs,
    });
    expect(orphanVerdict('n1', false, 1000, 11_000)).toEqual({ kind: 'wait', since: 1000, afterMs: 30_000 });
    expect(orphanVerdict('n1', false, 1000, 41_000)).toEqual({ kind: 'delete' });
  });

  it('never deletes before the quarantine has passed, and always after', () => {
    fc.assert(
      fc.property(fc.nat(1e9), fc.nat(1e6), fc.integer({ min: 1, max: 1e6 }), (since, elapsed, quarantine) => {
        const v = orphanVerdict('n', false, since, since + elapsed, quarantine);
        if (elapsed < quarantine) expect(v).toEqual({ kind: 'wait', since, afterMs: quarantine - elapsed });
        else expect(v).toEqual({ kind: 'delete' });
      }),
    );
  });
});
