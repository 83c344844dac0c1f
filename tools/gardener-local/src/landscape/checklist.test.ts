import { describe, expect, it } from 'vitest';
import { Checklist, SkipStep, formatDuration, renderStep } from './checklist.js';

function output(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, out: { isTTY, write: (c: string) => chunks.push(c) } };
}

/** A clock that advances 1.5 s per read. */
function clock() {
  let t = 0;
  return () => (t += 1500);
}

describe('landscape checklist', () => {
  it('formats durations as seconds below a minute, else minutes and seconds', () => {
    expect(formatDuration(1234)).toBe('1.2s');
    expect(formatDuration(61_000)).toBe('1m01s');
  });

  it('renders a done step with its detail and duration, a failed one with the log to read, a skipped one with its reason', () => {
    expect(renderStep({ name: 'scheduler', status: 'ok', durationMs: 5900, detail: 'deployment available' })).toBe(
      '✓ scheduler — deployment available (5.9s)',
    );
    expect(
      renderStep({
        name: 'scheduler',
        status: 'failed',
        durationMs: 100,
        detail: 'timed out',
        log: '/x/landscape.log',
      }),
    ).toBe('✗ scheduler: timed out (0.1s)\n    log: /x/landscape.log');
    expect(renderStep({ name: 'gardenlet', status: 'skipped', durationMs: 0, detail: 'not yet' })).toBe(
      '– gardenlet: skipped — not yet',
    );
  });

  it('prints one line per outcome; a skipped step lets the list go on, a failed one stops it', async () => {
    const { chunks, out } = output(false);
    const list = new Checklist(out, clock());
    await list.step('one', async () => 'done');
    await list.step('two', async () => {
      throw new SkipStep('not here');
    });
    await expect(list.step('three', async () => Promise.reject(new Error('boom')), '/log')).rejects.toThrow(
      'step "three" failed: boom',
    );
    expect(chunks.join('')).toBe(
      '✓ one — done (1.5s)\n– two: skipped — not here\n✗ three: boom (1.5s)\n    log: /log\n',
    );
    expect(list.results.map((r) => r.status)).toEqual(['ok', 'skipped', 'failed']);
  });

  it('on a terminal shows the running step and overwrites it with the outcome', async () => {
    const { chunks, out } = output(true);
    await new Checklist(out, clock()).step('cluster', async () => undefined);
    expect(chunks).toEqual(['… cluster', '\r\x1b[2K✓ cluster (1.5s)\n']);
  });
});
