import { appendFile, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followLog, readLog } from './log-reader.js';

let dir: string;
let path: string;
const line = (time: string, stream: string, text: string, tag = 'F') => `${time} ${stream} ${tag} ${text}\n`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'log-reader-'));
  path = join(dir, '0.log');
  await writeFile(
    path,
    line('2026-01-01T00:00:00.000000000Z', 'stdout', 'one') +
      line('2026-01-01T00:00:01.000000000Z', 'stderr', 'tw', 'P') +
      line('2026-01-01T00:00:01.000000000Z', 'stderr', 'o') +
      line('2026-01-01T00:00:02.000000000Z', 'stdout', 'three'),
  );
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('container logs', () => {
  it('prints lines of both streams, joining partial lines', async () => {
    expect(await readLog(path)).toBe('one\ntwo\nthree\n');
  });

  it('applies tailLines, since, timestamps and limitBytes', async () => {
    expect(await readLog(path, { tailLines: 2 })).toBe('two\nthree\n');
    expect(await readLog(path, { tailLines: 0 })).toBe('');
    expect(await readLog(path, { since: new Date('2026-01-01T00:00:01Z') })).toBe('two\nthree\n');
    expect(await readLog(path, { tailLines: 1, timestamps: true })).toBe('2026-01-01T00:00:02.000000000Z three\n');
    expect(await readLog(path, { limitBytes: 5 })).toBe('one\nt');
  });

  it('follows appended lines until the writer is done', async () => {
    const chunks: string[] = [];
    let finished = false;
    const following = followLog(
      path,
      { tailLines: 1 },
      (c) => chunks.push(c),
      () => finished,
      new AbortController().signal,
      20,
    );
    await appendFile(path, line('2026-01-01T00:00:03.000000000Z', 'stdout', 'four'));
    finished = true;
    await following;
    expect(chunks.join('')).toBe('three\nfour\n');
  });
});

describe('following a rotated log', () => {
  it('reads the rest of the rotated file, then the new one from its start', async () => {
    const log = join(dir, 'rotating.log');
    await writeFile(log, line('2026-01-01T00:00:00.000000000Z', 'stdout', 'a'));
    const chunks: string[] = [];
    let finished = false;
    const following = followLog(
      log,
      {},
      (c) => chunks.push(c),
      () => finished,
      new AbortController().signal,
      20,
    );
    await waitUntil(() => chunks.join('') === 'a\n');
    // As the log writer rotates: the last line still reaches the old file, new lines go to a new one.
    await rename(log, `${log}.20260101-000001`);
    await appendFile(`${log}.20260101-000001`, line('2026-01-01T00:00:01.000000000Z', 'stdout', 'b'));
    await writeFile(log, line('2026-01-01T00:00:02.000000000Z', 'stdout', 'c'));
    await waitUntil(() => chunks.join('') === 'a\nb\nc\n');
    finished = true;
    await following;
    expect(chunks.join('')).toBe('a\nb\nc\n');
  });
});

async function waitUntil(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
}
