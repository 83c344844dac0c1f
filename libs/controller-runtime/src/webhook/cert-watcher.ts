// Keeps a serving certificate and key current as their files change (cert-manager or Gardener's secrets manager
// rotating them, a Secret volume swapping its symlinks): file-system events for speed, polling as the fallback where
// events are unreliable. A pair that does not load (cert written, key not yet) is skipped until the next change.
import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createSecureContext } from 'node:tls';
import type { Logger } from '@gardener-ts/logging';

export interface KeyPairFiles {
  certFile: string;
  keyFile: string;
}

export interface ServingKeyPair {
  cert: Buffer;
  key: Buffer;
}

export interface CertWatcherOptions extends KeyPairFiles {
  /** How often to re-read the files regardless of events (default 10 s). */
  pollIntervalMs?: number;
  log?: Logger;
}

export class CertWatcher {
  private readonly listeners: ((pair: ServingKeyPair) => void)[] = [];
  private readonly watchers: FSWatcher[] = [];
  private poller?: NodeJS.Timeout;
  private reloading?: Promise<void>;
  private again = false;

  private constructor(
    private readonly options: CertWatcherOptions,
    private pair: ServingKeyPair,
  ) {}

  /** Loads the pair (throwing if it cannot) and starts watching the files. */
  static async start(options: CertWatcherOptions): Promise<CertWatcher> {
    const pair = await load(options);
    const watcher = new CertWatcher(options, pair);
    watcher.watchFiles();
    return watcher;
  }

  get current(): ServingKeyPair {
    return this.pair;
  }

  /** Calls `listener` with each new pair. */
  onChange(listener: (pair: ServingKeyPair) => void): void {
    this.listeners.push(listener);
  }

  /** Re-reads the files now; resolves once done (coalescing concurrent triggers). */
  reload(): Promise<void> {
    if (this.reloading) {
      this.again = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      do {
        this.again = false;
        await this.reloadOnce();
      } while (this.again);
    })().finally(() => (this.reloading = undefined));
    return this.reloading;
  }

  stop(): void {
    for (const w of this.watchers.splice(0)) w.close();
    clearInterval(this.poller);
  }

  private watchFiles(): void {
    // Watch the directories: rotations often replace the files (rename, symlink swap) rather than write into them.
    for (const dir of new Set([dirname(this.options.certFile), dirname(this.options.keyFile)])) {
      try {
        const w = watch(dir, () => void this.reload());
        w.on('error', (err) =>
          this.options.log?.warn({ err, dir }, 'Certificate directory watch failed; relying on polling'),
        );
        this.watchers.push(w);
      } catch (err) {
        this.options.log?.warn({ err, dir }, 'Cannot watch the certificate directory; relying on polling');
      }
    }
    this.poller = setInterval(() => void this.reload(), this.options.pollIntervalMs ?? 10_000);
    this.poller.unref();
  }

  private async reloadOnce(): Promise<void> {
    let next: ServingKeyPair;
    try {
      next = await load(this.options);
    } catch (err) {
      this.options.log?.warn({ err }, 'Could not load the rotated serving certificate; keeping the current one');
      return;
    }
    if (next.cert.equals(this.pair.cert) && next.key.equals(this.pair.key)) return;
    this.pair = next;
    this.options.log?.info({ certFile: this.options.certFile }, 'Serving certificate reloaded');
    for (const listener of this.listeners) listener(next);
  }
}

async function load({ certFile, keyFile }: KeyPairFiles): Promise<ServingKeyPair> {
  const read = (file: string, what: string) =>
    readFile(file).catch((err: Error) => {
      throw new Error(`cannot read the serving ${what} ${file}: ${err.message}`);
    });
  // One after the other: with both missing, the error names the certificate (a race between the two reads did not).
  const cert = await read(certFile, 'certificate');
  const key = await read(keyFile, 'key');
  try {
    createSecureContext({ cert, key }); // throws unless the key belongs to the certificate
  } catch (err) {
    throw new Error(`${certFile} and ${keyFile} are not a usable certificate and key: ${(err as Error).message}`);
  }
  return { cert, key };
}
