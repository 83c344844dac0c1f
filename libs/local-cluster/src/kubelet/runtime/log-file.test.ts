import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { containerLogDir, LogWriter, removeOldRuns, rotatedLogs, rotationSuffix } from './log-file.js';
import { readLog } from './log-reader.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'log-file-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** The texts of every line still on disk, oldest file first. */
async function linesOnDisk(path: string): Promise<string[]> {
  const files = [...(await rotatedLogs(path)), path];
  const texts = await Promise.all(files.map((f) => readLog(f)));
  return texts.join('').split('\n').filter(Boolean);
}

describe('container log rotation', () => {
  it('rotates at containerLogMaxSize, keeps containerLogMaxFiles files and loses no line it keeps', async () => {
    const path = join(dir, '0.log');
    const writer = await LogWriter.open(path, { maxSize: 300, maxFiles: 3 });
    for (let i = 1; i <= 100; i++) writer.line('stdout', `line ${i}`);
    await writer.closed();
    const rotated = await rotatedLogs(path);
    expect(rotated).toHaveLength(2);
    for (const file of rotated) expect(file).toMatch(/\/0\.log\.\d{8}-\d{6}(-\d+)?$/);
    for (const file of [...rotated, path]) expect((await stat(file)).size).toBeLessThanOrEqual(300);
    // The newest lines, consecutive and in order, end with the last one written.
    const kept = await linesOnDisk(path);
    const first = Number(kept[0].split(' ')[1]);
    expect(kept).toEqual(Array.from({ length: 100 - first + 1 }, (_, i) => `line ${first + i}`));
    expect(kept.length).toBeGreaterThan(10);
    // kubectl logs reads the current file: the last lines.
    expect((await readLog(path)).trimEnd().split('\n').at(-1)).toBe('line 100');
  });

  it('writes a line larger than the maximum into a file of its own rather than dropping it', async () => {
    const path = join(dir, '0.log');
    const writer = await LogWriter.open(path, { maxSize: 100, maxFiles: 2 });
    writer.line('stdout', 'short');
    writer.line('stderr', 'x'.repeat(500));
    await writer.closed();
    expect(await readLog(path)).toBe(`${'x'.repeat(500)}\n`);
    expect(await linesOnDisk(path)).toEqual(['short', 'x'.repeat(500)]);
  });

  it('counts the size a reopened file already has (a kubelet restart)', async () => {
    const path = join(dir, '0.log');
    await writeFile(path, `${'2026-01-01T00:00:00.000000000Z stdout F '}${'y'.repeat(200)}\n`);
    const writer = await LogWriter.open(path, { maxSize: 250, maxFiles: 5 });
    writer.line('stdout', 'after restart');
    await writer.closed();
    expect(await readLog(path)).toBe('after restart\n');
    expect(await rotatedLogs(path)).toHaveLength(1);
  });

  it('names rotated files as kube does', () => {
    expect(rotationSuffix(new Date('2026-11-25T00:29:07.123Z'))).toBe('20261125-002907');
  });

  it('keeps the logs of the current and the previous run only', async () => {
    const logs = containerLogDir(dir, 'main');
    for (const run of [0, 1, 2, 3]) {
      const writer = await LogWriter.open(join(logs, `${run}.log`), { maxSize: 60, maxFiles: 3 });
      writer.line('stdout', `run ${run} first`);
      writer.line('stdout', `run ${run} second`);
      await writer.closed();
    }
    await removeOldRuns(dir, 'main', 2);
    const names = await readdir(logs);
    expect(names.every((n) => n.startsWith('2.log') || n.startsWith('3.log'))).toBe(true);
    expect(names.filter((n) => n.startsWith('2.log')).length).toBeGreaterThan(1);
    expect(await readFile(join(logs, '3.log'), 'utf8')).toContain('run 3 second');
  });
});
