import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { JitteredBackoff, messagingMetrics } from '../src/index.js';
import { Outbox } from '../src/outbox/outbox.js';
import { metricValue } from './metric-value.js';

const message = (n: number, size = 10) => ({ subject: `s.${n}`, data: new Uint8Array(size) });

describe('outbox', () => {
  it('keeps messages up to the count bound, evicting the oldest and counting them', async () => {
    const registry = new Registry();
    const outbox = new Outbox({ maxMessages: 3 }, messagingMetrics(registry));
    for (let n = 1; n <= 5; n++) expect(outbox.push(message(n))).toBe(true);
    expect(await metricValue(registry, 'gardener_messaging_dropped_total', { reason: 'buffer-full' })).toBe(2);
    expect(await metricValue(registry, 'gardener_messaging_buffered_messages')).toBe(3);
    expect(await metricValue(registry, 'gardener_messaging_buffered_bytes')).toBe(30);
    expect(outbox.drain().map((m) => m.subject)).toEqual(['s.3', 's.4', 's.5']);
    expect(outbox.size).toBe(0);
    expect(await metricValue(registry, 'gardener_messaging_buffered_messages')).toBe(0);
    expect(await metricValue(registry, 'gardener_messaging_buffered_bytes')).toBe(0);
  });

  it('keeps messages up to the byte bound and refuses one larger than the bound', async () => {
    const registry = new Registry();
    const outbox = new Outbox({ maxBytes: 100 }, messagingMetrics(registry));
    for (let n = 1; n <= 4; n++) outbox.push(message(n, 30));
    expect(outbox.bytes).toBe(90);
    expect(outbox.push(message(5, 101))).toBe(false);
    expect(await metricValue(registry, 'gardener_messaging_dropped_total', { reason: 'too-large' })).toBe(1);
    expect(await metricValue(registry, 'gardener_messaging_dropped_total', { reason: 'buffer-full' })).toBe(1);
    expect(outbox.drain().map((m) => m.subject)).toEqual(['s.2', 's.3', 's.4']);
  });

  it('stays correct across many evictions', () => {
    const outbox = new Outbox({ maxMessages: 10 }, messagingMetrics(new Registry()));
    for (let n = 0; n < 5000; n++) outbox.push(message(n, 1));
    expect(outbox.size).toBe(10);
    expect(outbox.drain().map((m) => m.subject)).toEqual(Array.from({ length: 10 }, (_, i) => `s.${4990 + i}`));
  });

  it('refuses bounds below one', () => {
    expect(() => new Outbox({ maxMessages: 0 }, messagingMetrics(new Registry()))).toThrow(
      'outbox limits must be at least 1',
    );
  });
});

describe('reconnect back-off', () => {
  it('grows exponentially to its cap with jitter in the upper half', () => {
    const low = new JitteredBackoff({ initialDelayMs: 100, maxDelayMs: 1000 }, () => 0);
    expect(Array.from({ length: 6 }, () => low.next())).toEqual([50, 100, 200, 400, 500, 500]);
    const high = new JitteredBackoff({ initialDelayMs: 100, maxDelayMs: 1000 }, () => 1);
    expect(Array.from({ length: 6 }, () => high.next())).toEqual([100, 200, 400, 800, 1000, 1000]);
    high.reset();
    expect(high.next()).toBe(100);
  });

  it('refuses a cap below the first delay', () => {
    expect(() => new JitteredBackoff({ initialDelayMs: 100, maxDelayMs: 10 })).toThrow('invalid back-off');
  });
});
