// POST serviceaccounts/<name>/token: the TokenRequest API (`kubectl create token`).
import { errors } from '../api/errors.js';
import { readBodyBuffer, sendJson } from '../http/io.js';
import { decodeBody, type SubresourceHandler } from '../http/resource-handler.js';
import type { ServiceAccountTokens } from './service-account-tokens.js';

export function tokenRequestHandler(tokens: ServiceAccountTokens): SubresourceHandler {
  return async ({ req, res, definition, route, ctx }) => {
    if (req.method !== 'POST') throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
    const body = decodeBody(req, definition, await readBodyBuffer(req));
    sendJson(res, 201, await tokens.request(route.namespace, route.name, body), ctx.warnings);
  };
}
