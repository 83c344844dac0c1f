// Key pairs generated ahead of need. A shoot's first reconcile generates a key per CA and certificate (RSA 3072 bits,
// Gardener's) and the 4096-bit service account and SSH keys: about 1.3 s of CPU on two cores, all of it on the critical
// path of "Initializing secrets management". A pool filled while its process is quiet hands such keys out at once.
// Every key leaves the pool exactly once (the pool keeps no reference to a key it handed out), so no two secrets
// share a key; when the pool has none of a spec, the key is generated on the spot, as without a pool. The pool fills
// one key at a time (at most one threadpool thread, so one core) and only after `quietMs` without a take, so it does
// not compete with the flow that drained it.
import type { SecretConfig } from './configs/types.js';
import { keySpecOf } from './manager.js';
import { generateKeyPair, type KeyPair, type KeySpec } from './pki.js';

/** How many keys of one spec the pool keeps ready. */
export interface KeyStock {
  readonly spec: KeySpec;
  readonly count: number;
}

/** Options of {@link KeyPool}. */
export interface KeyPoolOptions {
  /** The keys to keep ready, filled in this order. */
  readonly stock: readonly KeyStock[];
  /** How long after the last take (or the start) the pool waits before it fills, in milliseconds (10 s). */
  readonly quietMs?: number;
  /** How a key is made (Node's crypto by default). */
  readonly generate?: (spec: KeySpec) => Promise<KeyPair>;
  /** Called when generating a key for the pool failed (the pool tries again after the next quiet period). */
  readonly onError?: (err: unknown) => void;
}

/** The pool's name for a spec (pure): specs that make the same keys share it. */
export function keySpecId(spec: KeySpec): string {
  return spec.algorithm === 'RSA' ? `RSA-${spec.bits}` : `ECDSA-${spec.curve ?? 'P-256'}`;
}

/** The keys generating `configs` takes when none of their secrets exists yet, by spec in first-use order (pure). */
export function keyStockOf(configs: readonly SecretConfig[]): KeyStock[] {
  const stock = new Map<string, KeyStock>();
  for (const spec of configs.map(keySpecOf)) {
    if (!spec) continue;
    const id = keySpecId(spec);
    stock.set(id, { spec: stock.get(id)?.spec ?? spec, count: (stock.get(id)?.count ?? 0) + 1 });
  }
  return [...stock.values()];
}

/** A pool of key pairs, filled in the background while its process is quiet. `take` is its `generateKey`. */
export class KeyPool {
  private readonly ready = new Map<string, KeyPair[]>();
  private readonly quietMs: number;
  private readonly generate: (spec: KeySpec) => Promise<KeyPair>;
  private timer: NodeJS.Timeout | undefined;
  private filling = false;
  private stopped = true;
  private lastTake = 0;

  constructor(private readonly options: KeyPoolOptions) {
    this.quietMs = options.quietMs ?? 10_000;
    this.generate = options.generate ?? generateKeyPair;
  }

  /** Starts filling the pool after the quiet period. */
  start(): void {
    this.stopped = false;
    this.lastTake = Date.now();
    this.schedule(this.quietMs);
  }

  /** Stops filling; the keys ready stay available to `take`. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The number of keys ready for a spec. */
  size(spec: KeySpec): number {
    return this.ready.get(keySpecId(spec))?.length ?? 0;
  }

  /** A key pair of `spec`: one from the pool if it has one ready (it leaves the pool), else a new one. */
  readonly take = async (spec: KeySpec): Promise<KeyPair> => {
    this.lastTake = Date.now();
    if (!this.stopped) this.schedule(this.quietMs);
    const key = this.ready.get(keySpecId(spec))?.shift();
    return key ?? this.generate(spec);
  };

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.fill(), delayMs);
    this.timer.unref();
  }

  private missing(): KeySpec | undefined {
    return this.options.stock.find((s) => this.size(s.spec) < s.count)?.spec;
  }

  private async fill(): Promise<void> {
    if (this.filling || this.stopped) return;
    this.filling = true;
    try {
      for (let spec = this.missing(); spec && !this.stopped; spec = this.missing()) {
        const quietFor = Date.now() - this.lastTake;
        // A take since the fill started: go on after the next quiet period.
        if (quietFor < this.quietMs) {
          this.schedule(this.quietMs - quietFor);
          return;
        }
        const key = await this.generate(spec);
        const id = keySpecId(spec);
        if (!this.ready.has(id)) this.ready.set(id, []);
        this.ready.get(id)!.push(key);
      }
    } catch (err) {
      this.options.onError?.(err);
      if (!this.stopped) this.schedule(this.quietMs);
    } finally {
      this.filling = false;
    }
  }
}
