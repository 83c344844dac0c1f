// Reading request bodies and writing responses the way kube-apiserver does.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, errors } from '../api/errors.js';

/** kube-apiserver's default request body limit. */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  return (await readBodyBuffer(req, limit)).toString('utf8');
}

/** The raw request body, for binary media types (protobuf). */
export async function readBodyBuffer(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) {
    req.resume();
    throw errors.tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw errors.tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, warnings: string[] = [], contentType = 'application/json'): void {
  const text = JSON.stringify(body);
  const headers: Record<string, string | string[]> = {
    'content-type': contentType,
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-cache, private',
  };
  if (warnings.length > 0) headers.warning = warnings.map((w) => `299 - ${JSON.stringify(w)}`);
  res.writeHead(status, headers);
  res.end(text);
}

export function sendError(res: ServerResponse, err: unknown): void {
  const apiError = err instanceof ApiError ? err : errors.internal(err instanceof Error ? err.message : String(err));
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, apiError.code, apiError.toStatus());
}

export function sendText(res: ServerResponse, status: number, text: string, contentType = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

/** `kubectl delete` of an object that is gone at once gets a Success Status in some kube versions; we return the object. */
export function successStatus(details: Record<string, unknown>): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details };
}
