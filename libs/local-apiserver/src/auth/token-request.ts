// POST serviceaccounts/<name>/token: the TokenRequest API (`kubectl create token`).
import { errors } from '../api/errors.js';
import { readBodyBuffer, sendJson } from '../http/io.js';
import { decodeBody, type SubresourceHandler } from '../http/resource-handler.js';
import type { ServiceAccountTokens } from './service-account-tokens.js';
import type { UserInfo } from '../server/context.js';
import type { KubeObject } from '../storage/types.js';

/** Admission of a TokenRequest before it is answered (NodeRestriction's check of node-requested tokens). */
export type TokenRequestAdmission = (
  user: UserInfo,
  namespace: string,
  name: string,
  body: KubeObject,
) => Promise<void>;

export function tokenRequestHandler(tokens: ServiceAccountTokens, admit?: TokenRequestAdmission): SubresourceHandler {
  return async ({ req, res, definition, route, ctx }) => {
    if (req.method !== 'POST')
      throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
    const body = decodeBody(req, definition, await readBodyBuffer(req));
    await admit?.(ctx.user, route.namespace, route.name, body);
    sendJson(res, 201, await tokens.request(route.namespace, route.name, body), ctx.warnings);
  };
}
