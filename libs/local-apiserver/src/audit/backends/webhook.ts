// The webhook backend (kube's --audit-webhook-config-file, batch mode): events are buffered and POSTed as
// audit.k8s.io/v1 EventList batches, when a batch is full or after a short wait, one batch at a time. A failed POST
// (network error, 429, 5xx) is retried with exponential back-off (kube's factor 1.5, 5 attempts); events that do not fit
// the buffer or whose batch is given up are dropped and reported. Requests never wait for any of it.
import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { setDeadline } from '../../http/client-deadline.js';
import type { AuditSink } from '../types.js';
import type { DropReporter } from './log.js';
import type { WebhookTarget } from './webhook-config.js';

export interface WebhookBatchOptions {
  /** Events held at most; more are dropped (kube: --audit-webhook-batch-buffer-size, 10000). */
  bufferSize?: number;
  /** Events per POST at most (kube: --audit-webhook-batch-max-size, 400). */
  maxBatchSize?: number;
  /** How long a batch waits to fill (kube's default is 30 s; here 1 s). */
  maxBatchWaitMs?: number;
  /** First retry delay (kube: --audit-webhook-initial-backoff, 10 s). */
  initialBackoffMs?: number;
  /** Attempts per batch, the first included. */
  attempts?: number;
  /** The total deadline of one POST (kube's webhook request timeout, 30 s). */
  timeoutMs?: number;
}

const DEFAULTS: Required<WebhookBatchOptions> = {
  bufferSize: 10_000,
  maxBatchSize: 400,
  maxBatchWaitMs: 1_000,
  initialBackoffMs: 10_000,
  attempts: 5,
  timeoutMs: 30_000,
};
/** On stop, pending batches get one attempt each, all within this time. */
const STOP_DEADLINE_MS = 10_000;

class RetryableError extends Error {}

export function webhookBackend(
  target: WebhookTarget,
  dropped: DropReporter,
  options: WebhookBatchOptions = {},
): AuditSink {
  const o = { ...DEFAULTS, ...options };
  const buffer: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  let sending: Promise<void> | undefined;
  let stopping = false;
  let wakeBackoff: (() => void) | undefined;

  /** Sends the next batch now (one at a time), then looks at the buffer again. */
  const sendNext = () => {
    clearTimeout(timer);
    timer = undefined;
    if (sending || buffer.length === 0) return;
    sending = sendBatch(buffer.splice(0, o.maxBatchSize)).finally(() => {
      sending = undefined;
      schedule();
    });
  };
  const schedule = () => {
    if (sending) return;
    if (buffer.length >= o.maxBatchSize || (stopping && buffer.length > 0)) sendNext();
    else if (buffer.length > 0 && !timer) {
      timer = setTimeout(sendNext, o.maxBatchWaitMs);
      timer.unref();
    }
  };

  async function sendBatch(items: string[]): Promise<void> {
    const body = `{"kind":"EventList","apiVersion":"audit.k8s.io/v1","metadata":{},"items":[${items.join(',')}]}`;
    let delay = o.initialBackoffMs;
    for (let attempt = 1; ; attempt++) {
      try {
        await post(target, body, o.timeoutMs);
        return;
      } catch (err) {
        if (!(err instanceof RetryableError) || attempt >= o.attempts || stopping)
          return dropped('webhook', items.length, err);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, delay * (0.8 + Math.random() * 0.4));
          t.unref();
          wakeBackoff = () => {
            clearTimeout(t);
            resolve();
          };
        });
        wakeBackoff = undefined;
        delay *= 1.5;
      }
    }
  }

  return {
    name: 'webhook',
    process(eventJson) {
      if (buffer.length >= o.bufferSize) return dropped('webhook', 1, new Error('audit webhook buffer is full'));
      buffer.push(eventJson);
      schedule();
    },
    async stop() {
      stopping = true;
      wakeBackoff?.();
      const deadline = Date.now() + STOP_DEADLINE_MS;
      schedule();
      while ((sending || buffer.length > 0) && Date.now() < deadline) {
        let timeout: NodeJS.Timeout | undefined;
        await Promise.race([
          sending,
          new Promise((r) => (timeout = setTimeout(r, Math.max(0, deadline - Date.now())))),
        ]);
        clearTimeout(timeout);
        schedule();
      }
      clearTimeout(timer);
      if (buffer.length > 0)
        dropped('webhook', buffer.splice(0).length, new Error('audit webhook did not accept the events before stop'));
    },
  };
}

function post(target: WebhookTarget, body: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const secure = target.url.protocol === 'https:';
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
    };
    if (target.token) headers.authorization = `Bearer ${target.token}`;
    const options = { method: 'POST', headers };
    const req = secure
      ? httpsRequest(target.url, {
          ...options,
          ca: target.ca,
          cert: target.cert,
          key: target.key,
          rejectUnauthorized: !target.insecureSkipTLSVerify,
        })
      : httpRequest(target.url, options);
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => {
        const code = res.statusCode ?? 0;
        if (code >= 200 && code < 300) resolve();
        else if (code === 429 || code >= 500) reject(new RetryableError(`audit webhook answered ${code}`));
        else reject(new Error(`audit webhook answered ${code}`));
      });
    });
    setDeadline(
      req,
      timeoutMs,
      () => new RetryableError(`audit webhook did not answer within ${timeoutMs / 1000}s: context deadline exceeded`),
      reject,
    );
    req.on('error', (err) => reject(err instanceof RetryableError ? err : new RetryableError(err.message)));
    req.end(body);
  });
}
