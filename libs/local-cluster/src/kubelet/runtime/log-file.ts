// Container logs on disk, one file per run: `<pod dir>/logs/<container>/<restartCount>.log`, in the CRI log format
// (`<RFC3339Nano time> <stdout|stderr> F <line>`), so logs can be filtered by time and shown with timestamps.
// Rotated as kube's container log manager does: once the file would grow past `containerLogMaxSize` it is renamed to
// `<restartCount>.log.<YYYYMMDD-hhmmss>` and a new one started; at most `containerLogMaxFiles` files (the current one
// included) are kept per run, the oldest rotated ones are deleted. Only the logs of the current and the previous run
// are kept (kube keeps one dead container per container).
import { createWriteStream, openSync, renameSync, statSync, unlinkSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { confinedJoin } from '../volumes/confined-path.js';

/** `<pod dir>/logs/<container>`; throws a PathEscapeError for a name that would leave `logs/`. */
export function containerLogDir(podDir: string, container: string): string {
  return confinedJoin(join(podDir, 'logs'), [container]);
}

export function containerLogPath(podDir: string, container: string, restartCount: number): string {
  return join(containerLogDir(podDir, container), `${restartCount}.log`);
}

/** Nanosecond-looking RFC 3339 time, as CRI log lines carry (JavaScript clocks have milliseconds). */
export function logTimestamp(date = new Date()): string {
  return date.toISOString().replace('Z', '000000Z');
}

/** kube's KubeletConfiguration `containerLogMaxSize` and `containerLogMaxFiles`. */
export interface LogRotation {
  /** Bytes a log file may reach before it is rotated; default 10 Mi. */
  maxSize: number;
  /** Files kept per container run, the current one included (at least 2); default 5. */
  maxFiles: number;
}

/** kube's defaults: `containerLogMaxSize: 10Mi`, `containerLogMaxFiles: 5`. */
export const DEFAULT_LOG_ROTATION: LogRotation = { maxSize: 10 * 1024 * 1024, maxFiles: 5 };

/** `20060102-150405` (Go layout) in UTC: the suffix of a rotated log file, as kube names them. */
export function rotationSuffix(date: Date): string {
  const iso = date.toISOString();
  return `${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}`;
}

/** The rotated files of a log (`<log>.<suffix>`), oldest first. */
export async function rotatedLogs(path: string): Promise<string[]> {
  const prefix = `${basename(path)}.`;
  const names = await readdir(dirname(path)).catch(() => [] as string[]);
  return names
    .filter((n) => n.startsWith(prefix))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .map((n) => join(dirname(path), n));
}

/** Deletes the log files (current and rotated) of every run before `keepFrom` (`<n>.log*` with n < keepFrom). */
export async function removeOldRuns(podDir: string, container: string, keepFrom: number): Promise<void> {
  const dir = containerLogDir(podDir, container);
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const run = /^(\d+)\.log(\.|$)/.exec(name);
    if (run && Number(run[1]) < keepFrom) await rm(join(dir, name), { force: true });
  }
}

/** Writes a process's stdout and stderr, line by line with time and stream, into one log file, rotating it. */
export class LogWriter {
  private out: WriteStream;
  private size: number;
  private pending = 0;
  private readonly rotated: string[];
  /** Streams of rotated files still flushing. */
  private readonly retired: Promise<unknown>[] = [];

  private constructor(
    private readonly path: string,
    private readonly rotation: LogRotation,
    rotated: string[],
  ) {
    this.out = createWriteStream(path, { flags: 'a' });
    this.size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
    this.rotated = rotated;
  }

  /** Resolves once the file exists, so a log request right after the start finds it. */
  static async open(path: string, rotation: LogRotation = DEFAULT_LOG_ROTATION): Promise<LogWriter> {
    await mkdir(dirname(path), { recursive: true });
    const writer = new LogWriter(path, rotation, await rotatedLogs(path));
    await once(writer.out, 'open');
    return writer;
  }

  /** Follows a stream until it ends; a last line without a newline is written when it does. */
  attach(stream: Readable, name: 'stdout' | 'stderr'): void {
    this.pending++;
    let partial = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop()!;
      for (const line of lines) this.line(name, line);
    });
    stream.on('close', () => {
      if (partial) this.line(name, partial);
      partial = '';
      if (--this.pending === 0) this.out.end();
    });
  }

  /** Resolves when every attached stream has ended and the file is flushed. */
  async closed(): Promise<void> {
    if (!this.out.closed) {
      if (this.pending === 0) this.out.end();
      await new Promise<void>((done) => this.out.once('close', () => done()));
    }
    await Promise.all(this.retired);
  }

  line(stream: 'stdout' | 'stderr', text: string): void {
    if (this.out.writableEnded) return;
    const entry = `${logTimestamp()} ${stream} F ${text}\n`;
    const bytes = Buffer.byteLength(entry);
    if (this.size > 0 && this.size + bytes > this.rotation.maxSize) this.rotate();
    this.out.write(entry);
    this.size += bytes;
  }

  // The open file is renamed (writes still queued land in it, the descriptor follows the rename) and a new file
  // takes its place; the oldest rotated files go so that at most maxFiles remain.
  private rotate(): void {
    // Several rotations within one second get -1, -2, ... so that names keep sorting oldest first.
    const base = `${this.path}.${rotationSuffix(new Date())}`;
    const taken = this.rotated
      .filter((f) => f === base || f.startsWith(`${base}-`))
      .map((f) => (f === base ? 0 : Number(f.slice(base.length + 1))));
    const target = taken.length === 0 ? base : `${base}-${Math.max(...taken) + 1}`;
    try {
      renameSync(this.path, target);
    } catch {
      return;
    }
    this.rotated.push(target);
    const previous = this.out;
    // Opened at once, so the current log file is never missing for a reader.
    this.out = createWriteStream(this.path, { fd: openSync(this.path, 'a') });
    this.retired.push(once(previous, 'close'));
    previous.end();
    this.size = 0;
    while (this.rotated.length > Math.max(1, this.rotation.maxFiles - 1)) {
      const oldest = this.rotated.shift()!;
      try {
        unlinkSync(oldest);
      } catch {
        // already gone
      }
    }
  }
}
