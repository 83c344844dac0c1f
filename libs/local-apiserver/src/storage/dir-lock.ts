// The exclusive lock of a directory: one API server per data dir (any storage kind) and one file store per store
// directory, as etcd's flock on its WAL does.
// Node has no flock, so the lock is a listening Unix socket whose name is derived from the directory's real path:
// binding is atomic (a second bind fails with EADDRINUSE) and the kernel frees the name when the holder dies, even
// by SIGKILL, so a stale lock never blocks a restart and no pid file can be mistaken for a live one after pid reuse.
// On Linux the socket lives in the abstract namespace (no file at all); elsewhere it is a socket file in the
// directory, where a socket nobody listens on is stale and is replaced. The holder answers a connection with its pid,
// so the error of a second server names the process that holds the directory.
import { createHash } from 'node:crypto';
import { realpath, rm } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';

/** What a lock holder tells whoever connects. */
interface Holder {
  pid: number;
  dir: string;
}

/** The error code of DirectoryLock.acquire when another process holds the directory. */
export const DIRECTORY_LOCKED = 'EDIRLOCKED';

/** An exclusive lock on a directory, held until `release()` or the end of the process. */
export class DirectoryLock {
  private constructor(
    readonly dir: string,
    private readonly server: Server,
    private readonly socketFile: string | undefined,
  ) {}

  /**
   * Takes the lock on `dir` (which must exist), or fails with an error (code `EDIRLOCKED`) naming the directory
   * (as `what`, e.g. "data directory") and the holder's pid.
   */
  static async acquire(dir: string, what = 'store directory'): Promise<DirectoryLock> {
    const real = await realpath(dir);
    const abstract = process.platform === 'linux';
    const address = abstract
      ? `\0gardener-ts/store-lock/${createHash('sha256').update(real).digest('hex')}`
      : join(real, '.lock.sock');
    const holder: Holder = { pid: process.pid, dir: real };
    const server = createServer((socket) => socket.end(JSON.stringify(holder) + '\n'));
    server.on('error', () => {}); // after listening: nothing to do, the lock stays held
    for (let attempt = 0; ; attempt++) {
      try {
        await listen(server, address);
        server.unref(); // the lock never keeps the process alive
        return new DirectoryLock(real, server, abstract ? undefined : address);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') {
          throw new Error(`cannot lock the ${what} ${real}: ${(err as Error).message}`, { cause: err });
        }
        const other = await askHolder(address);
        if (other === 'stale' && !abstract && attempt === 0) {
          // A socket file left by a process that died: nobody listens on it any more.
          await rm(address, { force: true });
          continue;
        }
        const who = typeof other === 'object' ? `process ${other.pid}` : 'another process';
        const locked = new Error(
          `the ${what} ${real} is locked by ${who}: another API server uses this data directory. Stop it ` +
            `first, or give this one its own --data-dir`,
        ) as NodeJS.ErrnoException;
        locked.code = DIRECTORY_LOCKED;
        throw locked;
      }
    }
  }

  /** Frees the lock (idempotent). */
  async release(): Promise<void> {
    if (!this.server.listening) return;
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen({ path, exclusive: true }, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/** Who holds the lock: its answer, 'stale' when nothing listens at the address, 'unknown' when it does not answer. */
function askHolder(address: string): Promise<Holder | 'stale' | 'unknown'> {
  return new Promise((resolve) => {
    let answer = '';
    const socket = connect({ path: address });
    socket.setTimeout(2_000, () => socket.destroy());
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', (err: NodeJS.ErrnoException) =>
      resolve(err.code === 'ECONNREFUSED' || err.code === 'ENOENT' ? 'stale' : 'unknown'),
    );
    socket.on('close', () => {
      try {
        const holder = JSON.parse(answer) as Holder;
        resolve(typeof holder.pid === 'number' ? holder : 'unknown');
      } catch {
        resolve('unknown');
      }
    });
  });
}
