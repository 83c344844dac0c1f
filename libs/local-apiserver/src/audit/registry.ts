// Which request and response belong to an audited request, so the body reader and the response writers (http/io.ts)
// can note what the audit event needs without being handed the audit. Only requests with an event are registered.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestAudit } from './request-audit.js';

const audits = new WeakMap<object, RequestAudit>();

export function registerAudit(audit: RequestAudit, req: IncomingMessage, res?: ServerResponse): void {
  audits.set(req, audit);
  if (res) audits.set(res, audit);
}

export function unregisterAudit(req: IncomingMessage, res?: ServerResponse): void {
  audits.delete(req);
  if (res) audits.delete(res);
}

/** Notes the body a handler read from an audited request. */
export function auditRequestBody(req: IncomingMessage, body: Buffer): void {
  audits.get(req)?.noteRequestBody(body);
}

/** Notes the object a handler answered an audited request with. */
export function auditResponseBody(res: ServerResponse, body: unknown): void {
  audits.get(res)?.noteResponseBody(body);
}
