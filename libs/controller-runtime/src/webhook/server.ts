// The HTTPS server webhooks run in: routes AdmissionReviews by path to handlers, turns a mutating handler's changed
// object into a JSON patch, and answers every request — malformed input with 400, a failing or slow handler with a
// denial — so a bug in one handler never takes the server down. The certificate follows its files without a restart.
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Registry } from 'prom-client';
import { createLogger, type Logger } from '@gardener-ts/logging';
import { errored, type AdmissionHandler, type AdmissionResult } from './admission.js';
import { CertWatcher } from './cert-watcher.js';
import { conversionHandler, type ConvertFunction } from './conversion.js';
import { createJsonPatch } from './json-patch.js';
import { webhookMetrics } from './metrics.js';
import {
  MalformedReviewError,
  decodeReview,
  encodePatch,
  encodeReview,
  type AdmissionRequest,
  type AdmissionResponse,
} from './review.js';

export type WebhookType = 'mutating' | 'validating';

export interface WebhookServerOptions {
  /** Address to listen on (default: every interface). */
  host?: string;
  /** Port (default 9443, as controller-runtime; 0 picks a free one). */
  port?: number;
  /** Directory holding `tls.crt` and `tls.key` (the layout of a mounted kubernetes.io/tls Secret). */
  certDir?: string;
  /** Or the two files explicitly. */
  certFile?: string;
  keyFile?: string;
  /** How often to re-read the certificate files besides file-system events (default 10 s). */
  certPollIntervalMs?: number;
  /** A handler that has not answered after this long is answered for it with a denial (default 10 s). */
  timeoutMs?: number;
  /** Largest accepted request body (default 7 MiB, as controller-runtime). */
  maxBodyBytes?: number;
  log?: Logger;
  metrics?: Registry;
}

interface Webhook {
  type: WebhookType;
  handler: AdmissionHandler;
}

/** An answer with an HTTP status other than 200: the request itself was not acceptable. */
class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A plain HTTP handler for a path (e.g. an authorization webhook answering SubjectAccessReviews). */
export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export class WebhookServer {
  private readonly log: Logger;
  private readonly hooks = new Map<string, Webhook>();
  private readonly handlers = new Map<string, HttpHandler>();
  private server?: Server;
  private certs?: CertWatcher;

  constructor(private readonly options: WebhookServerOptions = {}) {
    this.log = options.log ?? createLogger({ name: 'webhook', level: 'silent' });
    if (!options.certDir && !(options.certFile && options.keyFile))
      throw new Error('the webhook server needs certDir, or certFile and keyFile');
  }

  mutating(path: string, handler: AdmissionHandler): this {
    return this.register(path, { type: 'mutating', handler });
  }

  validating(path: string, handler: AdmissionHandler): this {
    return this.register(path, { type: 'validating', handler });
  }

  /** Serves `webhook` at `path` (also after start). */
  register(path: string, webhook: Webhook): this {
    this.claim(path);
    this.hooks.set(path, webhook);
    return this;
  }

  /**
   * Serves a plain HTTP handler at a path, beside the admission webhooks (controller-runtime's
   * `Register(path, http.Handler)`); the handler answers the request itself.
   */
  handle(path: string, handler: HttpHandler): this {
    this.claim(path);
    this.handlers.set(path, handler);
    return this;
  }

  /**
   * Serves a CRD conversion webhook at `path` (the CRD's `spec.conversion.webhook.clientConfig` path): each object of
   * a ConversionReview goes through `convert(object, desiredAPIVersion)`; a throw answers `result.status: Failure`
   * with its message (see `conversion.ts`).
   */
  conversion(path: string, convert: ConvertFunction): this {
    return this.handle(
      path,
      conversionHandler(convert, { maxBodyBytes: this.options.maxBodyBytes, log: this.log.child({ webhook: path }) }),
    );
  }

  private claim(path: string): void {
    if (!path.startsWith('/')) throw new Error(`webhook path ${JSON.stringify(path)} must start with "/"`);
    if (this.hooks.has(path) || this.handlers.has(path)) throw new Error(`a webhook is already registered at ${path}`);
  }

  get paths(): string[] {
    return [...this.hooks.keys(), ...this.handlers.keys()];
  }

  async start(): Promise<void> {
    if (this.server) throw new Error('webhook server already started');
    const { certDir, certFile, keyFile } = this.options;
    this.certs = await CertWatcher.start({
      certFile: certFile ?? join(certDir!, 'tls.crt'),
      keyFile: keyFile ?? join(certDir!, 'tls.key'),
      pollIntervalMs: this.options.certPollIntervalMs,
      log: this.log,
    });
    const server = createServer(
      { ...this.certs.current, minVersion: 'TLSv1.2' },
      (req, res) => void this.serve(req, res),
    );
    // New connections get the new certificate; connections already open keep theirs.
    this.certs.onChange((pair) => server.setSecureContext({ ...pair, minVersion: 'TLSv1.2' }));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port ?? 9443, this.options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.log.info({ port: this.port, paths: this.paths }, 'Webhook server started');
  }

  get port(): number {
    const address = this.server?.address() as AddressInfo | null | undefined;
    if (!address) throw new Error('webhook server not started');
    return address.port;
  }

  /** Re-reads the certificate files now (the watcher does this by itself on changes). */
  reloadCertificate(): Promise<void> {
    return this.certs?.reload() ?? Promise.resolve();
  }

  async stop(): Promise<void> {
    this.certs?.stop();
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'https://webhook').pathname;
    const plain = this.handlers.get(path);
    if (plain) return this.servePlain(path, plain, req, res);
    const hook = this.hooks.get(path);
    const metrics = this.options.metrics && webhookMetrics(this.options.metrics);
    const stopTimer = metrics?.latency.startTimer({ webhook: path });
    metrics?.inFlight.inc({ webhook: path });
    let status = 200;
    try {
      if (!hook) throw new HttpError(404, `no webhook is registered at ${path}`);
      if (req.method !== 'POST') throw new HttpError(405, `method ${req.method} not allowed: webhooks accept POST`);
      const contentType = req.headers['content-type'] ?? '';
      if (!contentType.startsWith('application/json'))
        throw new HttpError(400, `contentType=${contentType}, expected application/json`);
      const request = decodeReview(await readBody(req, this.options.maxBodyBytes ?? 7 * 1024 * 1024));
      const response = await this.admit(path, hook, request);
      respond(res, 200, encodeReview(response));
    } catch (err) {
      status = err instanceof HttpError ? err.status : err instanceof MalformedReviewError ? 400 : 500;
      const message =
        err instanceof MalformedReviewError ? `malformed AdmissionReview: ${err.message}` : (err as Error).message;
      this.log.info({ webhook: path, code: status, err: message }, 'Rejected webhook request');
      respond(res, status, encodeReview({ uid: '', allowed: false, status: { code: status, message } }));
    } finally {
      stopTimer?.();
      metrics?.inFlight.dec({ webhook: path });
      metrics?.requests.inc({ webhook: path, code: String(status) });
    }
  }

  private async servePlain(
    path: string,
    handler: HttpHandler,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const metrics = this.options.metrics && webhookMetrics(this.options.metrics);
    const stopTimer = metrics?.latency.startTimer({ webhook: path });
    metrics?.inFlight.inc({ webhook: path });
    try {
      await handler(req, res);
    } catch (err) {
      this.log.error({ webhook: path, err }, 'Webhook handler failed');
      if (!res.headersSent) respond(res, 500, JSON.stringify({ error: (err as Error).message }));
      else res.destroy();
    } finally {
      stopTimer?.();
      metrics?.inFlight.dec({ webhook: path });
      metrics?.requests.inc({ webhook: path, code: String(res.statusCode) });
    }
  }

  private async admit(path: string, hook: Webhook, request: AdmissionRequest): Promise<AdmissionResponse> {
    const log = this.log.child({
      webhook: path,
      uid: request.uid,
      kind: request.kind.kind,
      operation: request.operation,
      object: request.namespace ? `${request.namespace}/${request.name ?? ''}` : request.name,
    });
    const result = await this.invoke(hook, request, log);
    const response = toResponse(hook.type, request, result);
    log.debug(
      { allowed: response.allowed, code: response.status?.code, patched: Boolean(response.patch) },
      'Admission request handled',
    );
    return response;
  }

  /** Runs the handler, turning exceptions and timeouts into denials. */
  private async invoke(hook: Webhook, request: AdmissionRequest, log: Logger): Promise<AdmissionResult> {
    const timeoutMs = this.options.timeoutMs ?? 10_000;
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<AdmissionResult>((resolve) => {
      timer = setTimeout(() => {
        abort.abort();
        log.error({ timeoutMs }, 'Webhook handler timed out');
        resolve(errored(`the webhook did not answer within ${timeoutMs / 1000}s`, 504));
      }, timeoutMs);
    });
    try {
      const handled = Promise.resolve().then(() => hook.handler(request, { log, signal: abort.signal }));
      return await Promise.race([handled, timedOut]);
    } catch (err) {
      log.error({ err }, 'Webhook handler failed');
      return errored(err, 500);
    } finally {
      clearTimeout(timer);
    }
  }
}

function toResponse(type: WebhookType, request: AdmissionRequest, result: AdmissionResult): AdmissionResponse {
  const warnings = result.warnings?.length ? { warnings: result.warnings } : {};
  if (!result.allowed) {
    return {
      uid: request.uid,
      allowed: false,
      status: { code: result.code, message: result.message, ...(result.reason ? { reason: result.reason } : {}) },
      ...warnings,
    };
  }
  const status = { code: 200, ...(result.message ? { message: result.message } : {}) };
  if (!result.patched) return { uid: request.uid, allowed: true, status, ...warnings };
  if (type === 'validating') return toResponse(type, request, errored('a validating webhook cannot change the object'));
  // Nothing to patch for DELETE (no object) — the change is dropped, as the API server would drop it.
  if (!request.object) return { uid: request.uid, allowed: true, status, ...warnings };
  const ops = createJsonPatch(request.object, result.patched);
  return {
    uid: request.uid,
    allowed: true,
    status,
    ...(ops.length > 0 ? { patch: encodePatch(ops), patchType: 'JSONPatch' as const } : {}),
    ...warnings,
  };
}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new HttpError(413, `request body larger than ${limit} bytes`));
        req.resume();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function respond(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
