// The log backend (kube's --audit-log-path): one JSON Event per line, appended to a file created 0600 (its directory
// created as needed), or written to stdout for "-". Writes are queued, never awaited by requests; stop() waits until
// every line accepted so far is written.
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';
import type { AuditSink } from '../types.js';

export type DropReporter = (plugin: string, count: number, err?: unknown) => void;

export async function openLogBackend(path: string, dropped: DropReporter): Promise<AuditSink> {
  if (path === '-') return streamSink(process.stdout, false, dropped);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const handle = await open(path, 'a', 0o600);
  return streamSink(handle.createWriteStream(), true, dropped);
}

function streamSink(stream: Writable, owned: boolean, dropped: DropReporter): AuditSink {
  let failed = false;
  stream.on('error', (err) => {
    if (!failed) dropped('log', 1, err);
    failed = true;
  });
  return {
    name: 'log',
    process(eventJson) {
      if (failed || stream.destroyed || stream.writableEnded) return dropped('log', 1);
      stream.write(`${eventJson}\n`);
    },
    stop() {
      return new Promise<void>((resolve) => {
        if (failed || stream.destroyed) return resolve();
        if (!owned) {
          // stdout stays open: wait until what was queued is handed to the OS.
          if (stream.writableLength === 0) return resolve();
          stream.once('drain', () => resolve());
          return;
        }
        stream.end(() => resolve());
        stream.once('error', () => resolve());
      });
    },
  };
}
