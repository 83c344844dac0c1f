// Raw sources (controller-runtime's `WatchesRawSource`): event streams that are not informers — NATS wake-ups,
// timers, anything pushing requests — declared in a controller's builder like its watches.
import type { Request } from './request.js';

/** Enqueues one request into the controller's queue (deduplicated with everything else queued). */
export type Enqueue = (request: Request) => void;

/**
 * A source of requests. `start` is called once when the controller starts; it pushes requests with `enqueue` until
 * `signal` aborts (the controller stops). It may return a promise; a rejection is logged by the controller.
 */
export interface Source {
  start(enqueue: Enqueue, signal: AbortSignal): void | Promise<void>;
}

/** A source other code pushes into: `push` before start is buffered and delivered on start; after stop it is dropped. */
export interface ChannelSource extends Source {
  /** Enqueues the requests (e.g. from a NATS subscription callback). */
  push(...requests: Request[]): void;
}

/** A channel source: hand `push` to whoever learns about changes (NATS subscribers, webhooks, other controllers). */
export function channelSource(): ChannelSource {
  let target: Enqueue | undefined;
  let stopped = false;
  const buffered: Request[] = [];
  return {
    push(...requests) {
      if (stopped) return;
      if (target) for (const r of requests) target(r);
      else buffered.push(...requests);
    },
    start(enqueue, signal) {
      if (signal.aborted) {
        stopped = true;
        return;
      }
      target = enqueue;
      for (const r of buffered.splice(0)) enqueue(r);
      signal.addEventListener(
        'abort',
        () => {
          stopped = true;
          target = undefined;
        },
        { once: true },
      );
    },
  };
}

/** Options of `timerSource`. */
export interface TimerSourceOptions {
  /** Also enqueue once right at start. Default false. */
  immediate?: boolean;
  /** Called when `requests` throws or rejects; the timer keeps going. */
  onError?: (err: unknown) => void;
}

/**
 * Every `intervalMs`, enqueues what `requests()` returns (e.g. every object of a kind for a periodic resync, or a
 * fixed singleton request). Stops with the controller.
 */
export function timerSource(
  intervalMs: number,
  requests: () => Request[] | Promise<Request[]>,
  options: TimerSourceOptions = {},
): Source {
  if (!Number.isFinite(intervalMs) || intervalMs <= 0)
    throw new Error(`timerSource interval must be a positive number of milliseconds, got ${intervalMs}`);
  return {
    start(enqueue, signal) {
      if (signal.aborted) return;
      let running = false;
      const tick = async (): Promise<void> => {
        if (running || signal.aborted) return; // a slow requests() never overlaps itself
        running = true;
        try {
          const list = await requests();
          if (!signal.aborted) for (const r of list) enqueue(r);
        } catch (err) {
          options.onError?.(err);
        } finally {
          running = false;
        }
      };
      const timer = setInterval(() => void tick(), intervalMs);
      timer.unref?.();
      signal.addEventListener('abort', () => clearInterval(timer), { once: true });
      if (options.immediate) void tick();
    },
  };
}

/** Enqueues `request` once when the controller starts (controller-runtime's `EnqueueOnce`): for periodic jobs that then requeue themselves. */
export function onceSource(request: Request): Source {
  return {
    start(enqueue, signal) {
      if (!signal.aborted) enqueue(request);
    },
  };
}
