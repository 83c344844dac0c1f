import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SecretConfig } from './configs/types.js';
import { KeyPool, keySpecId, keyStockOf, type KeyStock } from './key-pool.js';
import type { KeyPair, KeySpec } from './pki.js';

const rsa3072: KeySpec = { algorithm: 'RSA', bits: 3072 };
const rsa4096: KeySpec = { algorithm: 'RSA', bits: 4096 };

// Keys as numbered tokens, each made once; `made` records the spec of every key generated.
function counter() {
  const made: string[] = [];
  const generate = async (spec: KeySpec) => {
    made.push(keySpecId(spec));
    return { n: made.length, spec: keySpecId(spec) } as unknown as KeyPair;
  };
  return { made, generate };
}
const idOf = (k: KeyPair) => (k as unknown as { n: number }).n;
const specOf = (k: KeyPair) => (k as unknown as { spec: string }).spec;

describe('KeyPool', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('fills its stock once quiet, then hands each key out once without generating', async () => {
    const { made, generate } = counter();
    const pool = new KeyPool({ stock: [{ spec: rsa3072, count: 3 }], quietMs: 1000, generate });
    pool.start();
    await vi.advanceTimersByTimeAsync(999);
    expect(made).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(pool.size(rsa3072)).toBe(3);

    const taken = await Promise.all([pool.take(rsa3072), pool.take(rsa3072), pool.take(rsa3072)]);
    expect(new Set(taken.map(idOf)).size).toBe(3);
    expect(made).toHaveLength(3);
    // Empty: the next key is made on the spot, and the pool refills after the next quiet period.
    expect(idOf(await pool.take(rsa3072))).toBe(4);
    await vi.advanceTimersByTimeAsync(1000);
    expect(pool.size(rsa3072)).toBe(3);
    pool.stop();
  });

  it('makes keys of a spec it does not stock on the spot', async () => {
    const { made, generate } = counter();
    const pool = new KeyPool({ stock: [{ spec: rsa3072, count: 1 }], quietMs: 10, generate });
    pool.start();
    await vi.advanceTimersByTimeAsync(10);
    expect(specOf(await pool.take({ algorithm: 'ECDSA' }))).toBe('ECDSA-P-256');
    expect(pool.size(rsa3072)).toBe(1);
    expect(made).toEqual(['RSA-3072', 'ECDSA-P-256']);
    pool.stop();
  });

  it('pauses filling while keys are taken and goes on after the next quiet period', async () => {
    let release: (() => void) | undefined;
    let made = 0;
    let calls = 0;
    const generate = () =>
      new Promise<KeyPair>((resolve) => {
        calls++;
        release = () => resolve({ n: ++made } as unknown as KeyPair);
      });
    const pool = new KeyPool({ stock: [{ spec: rsa3072, count: 2 }], quietMs: 100, generate });
    pool.start();
    await vi.advanceTimersByTimeAsync(100);
    // The fill generates its first key; a flow takes one meanwhile (made on the spot).
    const fillKey = release!;
    const taking = pool.take(rsa3072);
    release!();
    await taking;
    fillKey();
    await vi.advanceTimersByTimeAsync(0);
    expect(pool.size(rsa3072)).toBe(1);
    expect(made).toBe(2);
    // No second fill key until the takes have been quiet for 100 ms.
    await vi.advanceTimersByTimeAsync(99);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(3);
    release!();
    await vi.advanceTimersByTimeAsync(0);
    expect(pool.size(rsa3072)).toBe(2);
    pool.stop();
  });

  it('reports a failed generation and tries again after the quiet period', async () => {
    const errors: unknown[] = [];
    let fail = true;
    const { generate } = counter();
    const pool = new KeyPool({
      stock: [{ spec: rsa4096, count: 1 }],
      quietMs: 100,
      generate: (spec) => (fail ? Promise.reject(new Error('entropy')) : generate(spec)),
      onError: (err) => errors.push(err),
    });
    pool.start();
    await vi.advanceTimersByTimeAsync(100);
    expect(errors).toHaveLength(1);
    expect(pool.size(rsa4096)).toBe(0);
    fail = false;
    await vi.advanceTimersByTimeAsync(100);
    expect(pool.size(rsa4096)).toBe(1);
    pool.stop();
  });

  it('never hands a key out twice and never holds more than its stock, whatever the takes and pauses', async () => {
    const stock: KeyStock[] = [
      { spec: rsa3072, count: 3 },
      { spec: rsa4096, count: 1 },
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({ take: fc.constantFrom(rsa3072, rsa4096, { algorithm: 'ECDSA' } as KeySpec) }),
            fc.record({ wait: fc.integer({ min: 0, max: 300 }) }),
          ),
          { maxLength: 40 },
        ),
        async (steps) => {
          const { generate } = counter();
          const pool = new KeyPool({ stock, quietMs: 100, generate });
          pool.start();
          const handedOut: KeyPair[] = [];
          for (const step of steps) {
            if ('take' in step) {
              const key = await pool.take(step.take);
              expect(specOf(key)).toBe(keySpecId(step.take));
              handedOut.push(key);
            } else await vi.advanceTimersByTimeAsync(step.wait);
            for (const s of stock) expect(pool.size(s.spec)).toBeLessThanOrEqual(s.count);
          }
          pool.stop();
          expect(new Set(handedOut.map(idOf)).size).toBe(handedOut.length);
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe('keyStockOf', () => {
  it('counts the keys of certificates (RSA 3072 by default, or their key) and RSA secrets, and nothing else', () => {
    expect(
      keyStockOf([
        { kind: 'certificate', name: 'ca', commonName: 'ca', certType: 'ca' },
        { kind: 'rsa', name: 'sa', bits: 4096 },
        { kind: 'certificate', name: 'server', commonName: 's', certType: 'server', key: { algorithm: 'ECDSA' } },
        { kind: 'certificate', name: 'client', commonName: 'c', certType: 'client' },
        { kind: 'etcdEncryptionKey', name: 'etcd' },
      ] as SecretConfig[]).map((s) => [keySpecId(s.spec), s.count]),
    ).toEqual([
      ['RSA-3072', 2],
      ['RSA-4096', 1],
      ['ECDSA-P-256', 1],
    ]);
  });
});
