// A total deadline for the API server's outgoing requests (admission, authorization, audit and conversion webhooks),
// as Go's context deadline on kube's webhook clients: it covers connecting, sending, waiting and reading the whole
// answer. Node's `timeout` request option is only an idle timeout, which a peer that trickles bytes never trips.
import type { ClientRequest } from 'node:http';

/**
 * Fails `req` once `timeoutMs` have passed since this call, unless it completed: `fail` gets the error of
 * `timedOut()` first (so the caller's promise settles even when the response was already being read), then the
 * request is destroyed with it.
 */
export function setDeadline(
  req: ClientRequest,
  timeoutMs: number,
  timedOut: () => Error,
  fail: (err: Error) => void,
): void {
  const timer = setTimeout(() => {
    const err = timedOut();
    fail(err);
    req.destroy(err);
  }, timeoutMs);
  const done = () => clearTimeout(timer);
  req.once('close', done);
  req.once('response', (res) => res.once('end', done));
}
