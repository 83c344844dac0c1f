import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, renderText } from './logger.js';

function capture() {
  const out = new PassThrough();
  const lines: string[] = [];
  out.on('data', (d: Buffer) => lines.push(...d.toString().split('\n').filter(Boolean)));
  return { out, lines };
}

describe('createLogger', () => {
  it('writes one JSON object per line with level label, logger name and ISO time', async () => {
    const { out, lines } = capture();
    const log = createLogger({ name: 'gardenlet', destination: out });
    log.info({ shoot: { namespace: 'garden-dev', name: 'local' } }, 'reconciling');
    await new Promise((r) => setImmediate(r));
    const entry = JSON.parse(lines[0]);
    expect(entry).toMatchObject({ level: 'info', logger: 'gardenlet', msg: 'reconciling', shoot: { name: 'local' } });
    expect(new Date(entry.time).toISOString()).toBe(entry.time);
  });

  it('drops lines below the configured level', async () => {
    const { out, lines } = capture();
    const log = createLogger({ name: 'x', level: 'error', destination: out });
    log.info('hidden');
    log.error('shown');
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['shown']);
  });

  it('never logs secret material', async () => {
    const { out, lines } = capture();
    const log = createLogger({ name: 'x', destination: out });
    log.info({ secret: { data: { token: 'abc' } }, auth: { token: 'sekret' } }, 'loaded');
    await new Promise((r) => setImmediate(r));
    expect(lines[0]).not.toContain('sekret');
    expect(lines[0]).not.toContain('abc');
  });

  it('renders the text format with key=value fields', async () => {
    const { out, lines } = capture();
    const log = createLogger({ name: 'scheduler', format: 'text', destination: out });
    log.info({ seed: 'local' }, 'bound');
    await new Promise((r) => setTimeout(r, 10));
    expect(lines[0]).toMatch(/^\S+ INFO scheduler "bound" seed="local"$/);
    expect(renderText('not json')).toBe('not json');
  });
});
