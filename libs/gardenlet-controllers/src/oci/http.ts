// The small HTTP(S) client the OCI chart puller talks to registries with (node:http/node:https): redirects followed
// (at most 5; the Authorization header is dropped when one leaves the host, as Go's client does), a CA bundle for
// HTTPS, a cap on the body size and a timeout.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** A response with its whole body. */
export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface HttpRequestOptions {
  method?: 'GET' | 'HEAD' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** PEM CA certificates trusted for HTTPS (instead of the system's). */
  ca?: string;
  /** Refuses bodies larger than this. */
  maxBytes: number;
  timeoutMs: number;
}

const MAX_REDIRECTS = 5;

function once(url: URL, options: HttpRequestOptions): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      url,
      {
        method: options.method ?? 'GET',
        headers: options.headers,
        ...(url.protocol === 'https:' && options.ca ? { ca: options.ca } : {}),
        timeout: options.timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            req.destroy(new Error(`response of ${url.origin}${url.pathname} exceeds ${options.maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`request to ${url.origin} timed out after ${options.timeoutMs} ms`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Sends a request, following redirects. */
export async function httpFetch(url: URL, options: HttpRequestOptions): Promise<HttpResponse> {
  let current = url;
  let headers = { ...options.headers };
  for (let i = 0; ; i++) {
    const res = await once(current, { ...options, headers });
    const location = res.headers.location;
    if (![301, 302, 303, 307, 308].includes(res.status) || !location) return res;
    if (i >= MAX_REDIRECTS) throw new Error(`too many redirects from ${url.origin}${url.pathname}`);
    const next = new URL(location, current);
    if (next.host !== current.host) {
      headers = Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'authorization'));
    }
    current = next;
  }
}
