// Reading request bodies and writing responses the way kube-apiserver does.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, errors } from '../api/errors.js';
import { auditRequestBody, auditResponseBody } from '../audit/registry.js';

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
  const body = Buffer.concat(chunks);
  auditRequestBody(req, body);
  return body;
}

/**
 * The JSON of frozen bodies, by identity. Stores hand out deep-frozen objects (one per resourceVersion, shared by
 * every reader), so the JSON of one never changes: repeated GETs of an unchanged object serialise it once. Entries go
 * with their objects (a WeakMap), so a replaced object's JSON is collected with it.
 */
const serialised = new WeakMap<object, { text: string; length: string }>();

function serialise(body: unknown): { text: string; length: string } {
  const frozen = body !== null && typeof body === 'object' && Object.isFrozen(body);
  if (frozen) {
    const cached = serialised.get(body);
    if (cached) return cached;
  }
  const text = JSON.stringify(body);
  const entry = { text, length: String(Buffer.byteLength(text)) };
  if (frozen) serialised.set(body, entry);
  return entry;
}

/** JSON.stringify(value), reusing the JSON of a frozen object sent before. */
export function jsonOf(value: unknown): string {
  return serialise(value).text;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  warnings: string[] = [],
  contentType = 'application/json',
): void {
  auditResponseBody(res, body);
  const { text, length } = serialise(body);
  const headers: Record<string, string | string[]> = {
    'content-type': contentType,
    'content-length': length,
    'cache-control': 'no-cache, private',
  };
  if (warnings.length > 0) headers.warning = warnings.map((w) => `299 - ${JSON.stringify(w)}`);
  res.writeHead(status, headers);
  res.end(text);
}

/**
 * A list (`items` its last member) as sendJson would send it, with each frozen item's JSON reused: a list of
 * unchanged stored objects costs a join, not a serialisation of every object.
 */
export function sendJsonList(
  res: ServerResponse,
  status: number,
  list: Record<string, unknown>,
  warnings: string[] = [],
): void {
  const keys = Object.keys(list);
  const items = list.items;
  if (
    keys[keys.length - 1] !== 'items' ||
    !Array.isArray(items) ||
    items.some((i) => i === null || typeof i !== 'object')
  ) {
    return sendJson(res, status, list, warnings);
  }
  auditResponseBody(res, list);
  const { items: _items, ...rest } = list;
  const head = JSON.stringify(rest);
  const parts = new Array<string>(items.length);
  for (let i = 0; i < items.length; i++) parts[i] = serialise(items[i]).text;
  const text = `${head === '{}' ? '{' : `${head.slice(0, -1)},`}"items":[${parts.join(',')}]}`;
  const headers: Record<string, string | string[]> = {
    'content-type': 'application/json',
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

export function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  contentType = 'text/plain; charset=utf-8',
): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

/** `kubectl delete` of an object that is gone at once gets a Success Status in some kube versions; we return the object. */
export function successStatus(details: Record<string, unknown>): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details };
}
