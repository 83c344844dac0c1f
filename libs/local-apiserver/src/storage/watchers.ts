// One watcher as every backend delivers to it: events after its start revision only, in order, each to a consumer
// that may throw without harming anyone else (a watcher whose consumer threw is ended with an Unavailable error:
// it may have lost that event, so it must list again), and errors at most once, never from inside a write.
import { errorMessage } from './objects.js';
import { StorageError, type StorageEvent, type Watch } from './types.js';

export class WatchHandle implements Watch {
  private stopped = false;
  /** Events waiting behind a replay that has not been delivered yet. */
  private backlog: StorageEvent[] | undefined;

  constructor(
    readonly prefix: string,
    /** Only events with a higher revision are delivered. */
    private after: number,
    private readonly onEvent: (event: StorageEvent) => void,
    private readonly onError: (err: StorageError) => void,
    private readonly onStop: (watch: WatchHandle) => void = () => {},
  ) {}

  get active(): boolean {
    return !this.stopped;
  }

  /** Delivers `events` (already filtered by the caller) on a later microtask, before anything delivered since. */
  replay(events: StorageEvent[]): void {
    if (events.length === 0) return;
    this.backlog = events.slice();
    queueMicrotask(() => {
      const backlog = this.backlog ?? [];
      // The consumer may cause more events while we deliver; they join the backlog and are delivered in turn.
      for (let i = 0; i < backlog.length && !this.stopped; i++) this.send(backlog[i]);
      this.backlog = undefined;
    });
  }

  deliver(event: StorageEvent): void {
    if (this.stopped || event.revision <= this.after || !event.key.startsWith(this.prefix)) return;
    if (this.backlog) this.backlog.push(event);
    else this.send(event);
  }

  /** Ends the watch and tells the consumer why, on a later microtask. */
  fail(err: StorageError): void {
    if (this.stopped) return;
    this.stop();
    queueMicrotask(() => {
      try {
        this.onError(err);
      } catch (thrown) {
        process.emitWarning(`a storage watch error handler threw: ${errorMessage(thrown)}`);
      }
    });
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.backlog = undefined;
    this.onStop(this);
  }

  private send(event: StorageEvent): void {
    this.after = event.revision;
    try {
      this.onEvent(event);
    } catch (thrown) {
      this.fail(
        new StorageError(
          'Unavailable',
          `the watch consumer failed on revision ${event.revision}: ${errorMessage(thrown)}`,
        ),
      );
    }
  }
}
