// Container logs on disk, one file per run: `<pod dir>/logs/<container>/<restartCount>.log`, in the CRI log format
// (`<RFC3339Nano time> <stdout|stderr> F <line>`), so logs can be filtered by time and shown with timestamps.
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

export function containerLogDir(podDir: string, container: string): string {
  return join(podDir, 'logs', container);
}

export function containerLogPath(podDir: string, container: string, restartCount: number): string {
  return join(containerLogDir(podDir, container), `${restartCount}.log`);
}

/** Nanosecond-looking RFC 3339 time, as CRI log lines carry (JavaScript clocks have milliseconds). */
export function logTimestamp(date = new Date()): string {
  return date.toISOString().replace('Z', '000000Z');
}

/** Writes a process's stdout and stderr, line by line with time and stream, into one log file. */
export class LogWriter {
  private readonly out: WriteStream;
  private pending = 0;

  private constructor(path: string) {
    this.out = createWriteStream(path, { flags: 'a' });
  }

  /** Resolves once the file exists, so a log request right after the start finds it. */
  static async open(path: string): Promise<LogWriter> {
    await mkdir(join(path, '..'), { recursive: true });
    const writer = new LogWriter(path);
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
  closed(): Promise<void> {
    if (this.out.closed) return Promise.resolve();
    if (this.pending === 0) this.out.end();
    return new Promise((done) => this.out.once('close', () => done()));
  }

  line(stream: 'stdout' | 'stderr', text: string): void {
    if (!this.out.writableEnded) this.out.write(`${logTimestamp()} ${stream} F ${text}\n`);
  }
}
