// HTTP to one API server, authenticated as a KubeConfig says: JSON requests and newline-delimited watch streams.
// Plain node:http(s) with a keep-alive agent: objects stay plain JSON and watches stream without buffering.
// Every request but a watch has a total deadline (connect, send, wait, read the whole answer): 30 s unless configured,
// what controller-runtime users set on client-go's rest.Config.Timeout; a hanging API server then fails the request
// instead of stalling a reconciler forever. Watches run as long as the server keeps them open.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from '@gardener-ts/logging';
import { ApiError } from './api-error.js';
import { clientRateLimiter, type ClientRateLimit, type TokenBucket } from './rate-limit.js';

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: URLSearchParams;
  body?: unknown;
  contentType?: string;
  accept?: string;
  signal?: AbortSignal;
}

export interface TransportOptions {
  /** Client-side rate limit of requests (not watches), as client-go's QPS and burst; none by default. */
  rateLimit?: ClientRateLimit;
  /** Where waits on the rate limiter are reported, as client-go reports them (debug above 50 ms, info above 1 s). */
  log?: Logger;
  /**
   * The total deadline of one request, watches excepted (client-go's rest.Config.Timeout), from sending it to having
   * read the whole answer; the wait on the client-side rate limiter is not counted. Default 30 s; 0 means none.
   */
  requestTimeoutMs?: number;
}

/** The default deadline of a non-watch request. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** client-go's longThrottleLatency and extraLongThrottleLatency. */
const LONG_THROTTLE_MS = 50;
const EXTRA_LONG_THROTTLE_MS = 1000;

export class Transport {
  /** The client-side rate limiter every request (not watches) waits on; undefined when not limited. */
  readonly rateLimiter?: TokenBucket;
  private readonly server: URL;
  private readonly agent: HttpAgent;
  private readonly secure: boolean;
  private readonly log?: Logger;
  private readonly requestTimeoutMs: number;

  private constructor(
    private readonly kubeConfig: KubeConfig,
    server: string,
    tls: {
      ca?: Buffer | string;
      cert?: Buffer | string;
      key?: Buffer | string;
      rejectUnauthorized?: boolean;
      servername?: string;
    },
    options: TransportOptions = {},
  ) {
    this.rateLimiter = clientRateLimiter(options.rateLimit);
    this.log = options.log;
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    if (!(this.requestTimeoutMs >= 0))
      throw new Error(`requestTimeoutMs must be a non-negative number, got ${options.requestTimeoutMs}`);
    this.server = new URL(server);
    this.secure = this.server.protocol === 'https:';
    const common = { keepAlive: true, maxSockets: 64 };
    this.agent = this.secure ? new HttpsAgent({ ...common, ...tls }) : new HttpAgent(common);
  }

  static async fromKubeConfig(kubeConfig: KubeConfig, options: TransportOptions = {}): Promise<Transport> {
    const cluster = kubeConfig.getCurrentCluster();
    if (!cluster)
      throw new Error(`kubeconfig has no current cluster (context ${JSON.stringify(kubeConfig.getCurrentContext())})`);
    const opts: RequestOptions & {
      ca?: Buffer;
      cert?: Buffer;
      key?: Buffer;
      rejectUnauthorized?: boolean;
      servername?: string;
    } = {};
    await kubeConfig.applyToHTTPSOptions(opts);
    return new Transport(
      kubeConfig,
      cluster.server,
      {
        ca: opts.ca,
        cert: opts.cert,
        key: opts.key,
        rejectUnauthorized: cluster.skipTLSVerify ? false : opts.rejectUnauthorized,
        servername: cluster.tlsServerName,
      },
      options,
    );
  }

  /** Sends a request and parses the JSON answer; a non-2xx answer becomes an ApiError. */
  async request<T>(req: HttpRequest): Promise<T> {
    // client-go throttles every request but watches (Request.Watch deliberately skips the rate limiter).
    if (this.rateLimiter) {
      const started = performance.now();
      try {
        await this.rateLimiter.wait(req.signal);
      } catch {
        throw new ApiError(
          0,
          'Aborted',
          `${req.method} ${req.path} aborted while waiting for the client-side rate limiter`,
        );
      }
      this.reportThrottling(req, performance.now() - started);
    }
    const { res, body } = await this.exchange(req);
    const status = res.statusCode ?? 0;
    if (status < 200 || status >= 300) throw ApiError.fromResponse(status, body, `${req.method} ${req.path}`);
    return (body ? JSON.parse(body) : {}) as T;
  }

  // A component that waits long on its own limiter needs a higher qps/burst, not the server: say so, as client-go does.
  private reportThrottling(req: HttpRequest, waitedMs: number): void {
    if (!this.log || waitedMs < LONG_THROTTLE_MS) return;
    const message = `Waited for ${(waitedMs / 1000).toFixed(3)}s due to client-side throttling, not priority and fairness, request: ${req.method}:${this.server.origin}${req.path}`;
    if (waitedMs >= EXTRA_LONG_THROTTLE_MS) this.log.info({ waitedMs: Math.round(waitedMs) }, message);
    else this.log.debug({ waitedMs: Math.round(waitedMs) }, message);
  }

  /**
   * Streams newline-delimited JSON (a watch). Resolves when the server ends the stream or `signal` aborts;
   * rejects when the connection breaks or the server refuses the request.
   */
  async stream(req: HttpRequest, onItem: (item: unknown) => void): Promise<void> {
    const res = await this.send(req);
    const status = res.statusCode ?? 0;
    if (status !== 200) throw ApiError.fromResponse(status, await readBody(res), `${req.method} ${req.path}`);
    await new Promise<void>((resolve, reject) => {
      let pending = '';
      let failed = false;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        pending += chunk;
        let newline: number;
        while ((newline = pending.indexOf('\n')) >= 0) {
          const line = pending.slice(0, newline).trim();
          pending = pending.slice(newline + 1);
          if (!line) continue;
          try {
            onItem(JSON.parse(line));
          } catch (err) {
            failed = true;
            res.destroy();
            return reject(err);
          }
        }
      });
      res.on('end', () => resolve());
      // An abort by the caller is a clean end; anything else is a broken connection.
      res.on('error', (err) => (failed ? undefined : req.signal?.aborted ? resolve() : reject(err)));
      res.on('close', () =>
        res.complete || req.signal?.aborted ? resolve() : reject(new Error('watch connection closed')),
      );
    });
  }

  close(): void {
    this.agent.destroy();
  }

  /** Sends a request and reads its whole answer within the request deadline. */
  private async exchange(req: HttpRequest): Promise<{ res: IncomingMessage; body: string }> {
    if (this.requestTimeoutMs === 0) {
      const res = await this.send(req);
      return { res, body: await readBody(res) };
    }
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.requestTimeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, deadline.signal]) : deadline.signal;
    try {
      const res = await this.send({ ...req, signal });
      return { res, body: await readBody(res) };
    } catch (err) {
      if (!deadline.signal.aborted || req.signal?.aborted) throw err;
      const seconds = this.requestTimeoutMs / 1000;
      throw new ApiError(
        0,
        'Timeout',
        `${req.method} ${this.server.origin}${req.path}: no complete answer within ${seconds}s (the client's request timeout): context deadline exceeded`,
      );
    } finally {
      clearTimeout(timer);
    }
  }

  private async send(req: HttpRequest): Promise<IncomingMessage> {
    const auth: RequestOptions = {};
    await this.kubeConfig.applyToHTTPSOptions(auth);
    const url = new URL(this.server.href.replace(/\/$/, '') + req.path);
    if (req.query) url.search = req.query.toString();
    const headers: Record<string, string> = { accept: req.accept ?? 'application/json' };
    for (const [k, v] of Object.entries(auth.headers ?? {})) if (v !== undefined) headers[k.toLowerCase()] = String(v);
    if (auth.auth) headers.authorization = `Basic ${Buffer.from(auth.auth).toString('base64')}`;
    const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
    if (payload !== undefined) {
      headers['content-type'] = req.contentType ?? 'application/json';
      // Node frames DELETE bodies only with an explicit length.
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    const send = this.secure ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const request = send(url, { method: req.method, headers, agent: this.agent, signal: req.signal }, resolve);
      request.on('error', (err) =>
        reject(err.name === 'AbortError' ? new ApiError(0, 'Aborted', `${req.method} ${req.path} aborted`) : err),
      );
      request.end(payload);
    });
  }
}

function readBody(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
    // A connection cut (or aborted) in the middle of the body ends the response without 'end'.
    res.on('close', () =>
      res.complete ? undefined : reject(new Error('the connection closed before the whole answer arrived')),
    );
  });
}
