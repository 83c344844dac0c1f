// Polling a condition of the seed or the shoot until it holds, as the shoot flows' wait steps do (Gardener's
// `retry.UntilTimeout`): a reason why not yet, or done; the last reason in the error on timeout.
import {
  isNotFound,
  pollDelays,
  type ApiClient,
  type Client,
  type Kind,
  type KubernetesObject,
} from '@gardener-ts/controller-runtime';
import { sleep } from '@gardener-ts/flow';

/** How the waits of the botanist poll. */
export interface BotanistWait {
  readonly interval: number;
  readonly timeout: number;
}

export { pollDelays };

/** What a wait is for, in its timeout's error: `<what>: <the last reason>`, or the whole message from the reason. */
export type WaitSubject = string | ((reason: string) => string);

/**
 * Polls `check` (a reason why not yet, or undefined when done) until it is done or the wait's timeout passes, with
 * {@link pollDelays} up to the wait's interval.
 */
export async function pollUntil(
  what: WaitSubject,
  check: () => Promise<string | undefined>,
  wait: BotanistWait,
  signal: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + wait.timeout;
  const delays = pollDelays(wait.interval);
  for (;;) {
    signal.throwIfAborted();
    const reason = await check();
    if (reason === undefined) return;
    if (Date.now() >= deadline) throw new Error(typeof what === 'string' ? `${what}: ${reason}` : what(reason));
    await sleep(delays.next().value, signal);
  }
}

/** The client calls of {@link waitForObject}: `get`, and `watch` when the client has it. */
export type ObjectWaitClient = Pick<Client, 'get'> & Partial<Pick<ApiClient, 'watch'>>;

/**
 * Waits until `notReady` finds nothing missing in one object (it gets undefined while the object does not exist):
 * polls the object as `pollUntil` does and, when the client can watch, also checks every new version of it as the API
 * server announces it, so the wait ends when the state is reached instead of up to one poll interval later. A watch
 * that fails or ends leaves the polling to finish the wait; the poll's timeout and error stay as they were. The
 * timeout's error is as {@link pollUntil}'s; `what` names the object by default.
 */
export async function waitForObject<T extends KubernetesObject>(
  client: ObjectWaitClient,
  kind: Kind<T>,
  key: { namespace?: string; name: string },
  notReady: (object: T | undefined) => string | undefined,
  wait: BotanistWait,
  signal: AbortSignal,
  what: WaitSubject = `${kind.kind} ${key.namespace ? `${key.namespace}/` : ''}${key.name}`,
): Promise<void> {
  const done = new AbortController();
  const running = AbortSignal.any([signal, done.signal]);
  const polled = pollUntil(
    what,
    async () => {
      try {
        return notReady(await client.get(kind, key));
      } catch (err) {
        if (isNotFound(err)) return notReady(undefined);
        throw err;
      }
    },
    wait,
    running,
  );
  try {
    if (!client.watch) return await polled;
    const watched = watchUntilReady(client.watch.bind(client), kind, key, notReady, running);
    await Promise.race([polled, watched.then((ready) => (ready ? undefined : polled))]);
  } finally {
    done.abort();
    // Ended by the watch: the poll stops with an abort nobody waits for.
    polled.catch(() => undefined);
  }
}

// Whether a version of the object the watch delivered was ready; false when the watch ended or broke before one was.
async function watchUntilReady<T extends KubernetesObject>(
  watch: ApiClient['watch'],
  kind: Kind<T>,
  key: { namespace?: string; name: string },
  notReady: (object: T | undefined) => string | undefined,
  signal: AbortSignal,
): Promise<boolean> {
  const stop = new AbortController();
  let ready = false;
  try {
    await watch(
      kind,
      {
        namespace: key.namespace,
        fieldSelector: { 'metadata.name': key.name },
        signal: AbortSignal.any([signal, stop.signal]),
      },
      (event) => {
        if (ready || event.object.metadata?.name !== key.name) return;
        if (event.type !== 'ADDED' && event.type !== 'MODIFIED' && event.type !== 'DELETED') return;
        // A deletion is the object gone: what a wait for its deletion waits for.
        if (notReady(event.type === 'DELETED' ? undefined : event.object) !== undefined) return;
        ready = true;
        stop.abort();
      },
    );
  } catch {
    // Stopped, or the watch broke: the poll goes on.
  }
  return ready;
}
