import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from '@gardener-ts/testing';
import { Controller } from './controller.js';
import type { Request } from './request.js';
import { channelSource, onceSource, timerSource } from './source.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('channelSource', () => {
  it('buffers pushes before start and delivers them and later ones on start', () => {
    const source = channelSource();
    const got: Request[] = [];
    source.push({ namespace: 'a', name: 'early' });
    const abort = new AbortController();
    void source.start((r) => got.push(r), abort.signal);
    source.push({ namespace: 'a', name: 'late' }, { namespace: '', name: 'cluster-scoped' });
    expect(got.map((r) => r.name)).toEqual(['early', 'late', 'cluster-scoped']);
    abort.abort();
    source.push({ namespace: 'a', name: 'after-stop' });
    expect(got).toHaveLength(3);
  });
});

describe('timerSource', () => {
  it('enqueues what requests() returns every interval until stopped', async () => {
    vi.useFakeTimers();
    const got: string[] = [];
    let calls = 0;
    const source = timerSource(1000, () => [{ namespace: 'ns', name: `tick-${++calls}` }]);
    const abort = new AbortController();
    void source.start((r) => got.push(r.name), abort.signal);
    expect(got).toEqual([]);
    await vi.advanceTimersByTimeAsync(2500);
    expect(got).toEqual(['tick-1', 'tick-2']);
    abort.abort();
    await vi.advanceTimersByTimeAsync(5000);
    expect(got).toEqual(['tick-1', 'tick-2']);
  });

  it('can fire at once and reports errors without stopping', async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    let n = 0;
    const got: string[] = [];
    const source = timerSource(
      1000,
      async () => {
        n++;
        if (n === 2) throw new Error('list failed');
        return [{ namespace: '', name: `n${n}` }];
      },
      { immediate: true, onError: (e) => errors.push(e) },
    );
    const abort = new AbortController();
    void source.start((r) => got.push(r.name), abort.signal);
    await vi.advanceTimersByTimeAsync(3000);
    abort.abort();
    expect(got).toEqual(['n1', 'n3', 'n4']);
    expect(errors).toHaveLength(1);
  });

  it('rejects a non-positive interval', () => {
    expect(() => timerSource(0, () => [])).toThrow(/positive/);
  });
});

describe('Controller with a raw source', () => {
  it('reconciles the requests a channel source pushes', async () => {
    const source = channelSource();
    const reconciled: string[] = [];
    const controller = new Controller('raw-source-test', async (req) => {
      reconciled.push(`${req.namespace}/${req.name}`);
    });
    controller.watchRaw(source);
    source.push({ namespace: 'garden', name: 'before-start' });
    controller.start();
    source.push({ namespace: 'garden', name: 'after-start' });
    await waitFor('both requests to be reconciled', () => reconciled.length === 2, { timeoutMs: 10_000 });
    expect(reconciled.sort()).toEqual(['garden/after-start', 'garden/before-start']);
    await controller.stop();
    expect(() => controller.watchRaw(channelSource())).toThrow(/before start/);
  });
});

describe('onceSource', () => {
  it('enqueues its request once at start', () => {
    const got: Request[] = [];
    void onceSource({ namespace: '', name: 'gc' }).start((r) => got.push(r), new AbortController().signal);
    expect(got).toEqual([{ namespace: '', name: 'gc' }]);
  });
});
