import { describe, expect, it } from 'vitest';
import { affinityTimeoutMs, BackendPicker, type Backend } from './backend-picker.js';

const a: Backend = { host: '127.0.0.1', port: 1001 };
const b: Backend = { host: '127.0.0.1', port: 1002 };
const c: Backend = { host: '127.0.0.2', port: 1001 };
const HOUR = 3_600_000;

/** A picker on a clock the test moves. */
function picker() {
  let now = 1_000_000;
  const p = new BackendPicker(() => now);
  return { p, advance: (ms: number) => (now += ms) };
}

const picks = (p: BackendPicker, client: string, n: number) => Array.from({ length: n }, () => p.pick(client)?.port);

describe('backend picker', () => {
  it('goes round robin without affinity, for one client too', () => {
    const { p } = picker();
    p.update([a, b]);
    expect(picks(p, '127.0.0.1', 4)).toEqual([1001, 1002, 1001, 1002]);
  });

  it('keeps a client on its backend with ClientIP affinity, and spreads other clients', () => {
    const { p } = picker();
    p.update([a, b], HOUR);
    expect(picks(p, '127.9.0.1', 5)).toEqual([1001, 1001, 1001, 1001, 1001]);
    expect(picks(p, '127.9.0.2', 3)).toEqual([1002, 1002, 1002]);
  });

  it('lets the affinity expire after the timeout, counted from the last connection', () => {
    const { p, advance } = picker();
    p.update([a, b], HOUR);
    expect(p.pick('127.9.0.1')).toBe(a);
    advance(0.8 * HOUR);
    expect(p.pick('127.9.0.1')).toBe(a);
    advance(0.8 * HOUR); // 1.6 h after the first connection, 0.8 h after the last one
    expect(p.pick('127.9.0.1')).toBe(a);
    advance(HOUR + 1);
    expect(p.pick('127.9.0.1')).toBe(b);
    expect(p.pick('127.9.0.1')).toBe(b);
  });

  it('drops the affinity when the backend leaves the ready set, even if it comes back', () => {
    const { p } = picker();
    p.update([a, b], HOUR);
    expect(p.pick('127.9.0.1')).toBe(a);
    p.update([b, c], HOUR);
    const next = p.pick('127.9.0.1');
    expect(next).not.toBe(a);
    p.update([a, b, c], HOUR);
    expect(p.pick('127.9.0.1')).toBe(next);
  });

  it('drops the affinity to a backend that refused, and skips the backends a connection tried', () => {
    const { p } = picker();
    p.update([a, b], HOUR);
    expect(p.pick('127.9.0.1')).toBe(a);
    p.failed('127.9.0.1', a);
    expect(p.pick('127.9.0.1', new Set(['127.0.0.1:1001']))).toBe(b);
    expect(p.pick('127.9.0.1')).toBe(b);
    expect(p.pick('127.9.0.2', new Set(['127.0.0.1:1001', '127.0.0.1:1002']))).toBeUndefined();
  });

  it('has nothing to pick without ready backends', () => {
    const { p } = picker();
    p.update([], HOUR);
    expect(p.pick('127.9.0.1')).toBeUndefined();
  });

  it('reads the timeout from the Service spec', () => {
    expect(affinityTimeoutMs({ sessionAffinity: 'None' })).toBeUndefined();
    expect(affinityTimeoutMs({ sessionAffinity: 'ClientIP' })).toBe(10_800_000);
    expect(
      affinityTimeoutMs({ sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } } }),
    ).toBe(60_000);
    expect(
      affinityTimeoutMs({
        sessionAffinity: 'ClientIP',
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 100_000 } },
      }),
    ).toBe(10_800_000);
  });
});
