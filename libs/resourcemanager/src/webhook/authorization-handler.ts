// The HTTP side of an authorization webhook (Gardener's pkg/webhook/authorizer Handler): reads a SubjectAccessReview,
// asks the authorizer and always answers 200 with the review's status — allowed, denied, no opinion, or an
// evaluation error (`<code> <message>`) for a bad request or a failed decision.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@gardener-ts/logging';
import type { HttpHandler } from '@gardener-ts/controller-runtime';
import type { AuthorizerResult } from './node-agent-authorizer.js';
import {
  MalformedSubjectAccessReview,
  decodeSubjectAccessReview,
  encodeSubjectAccessReview,
  erroredStatus,
  statusFor,
  type AuthorizationAttributes,
  type SubjectAccessReviewStatus,
} from './subject-access-review.js';

export type Authorize = (attrs: AuthorizationAttributes) => Promise<AuthorizerResult>;

/** Gardener's DecisionTimeout. */
const DecisionTimeoutMs = 10_000;
const MaxBodyBytes = 7 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MaxBodyBytes) reject(new Error(`request body larger than ${MaxBodyBytes} bytes`));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('context deadline exceeded')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export function authorizationHandler(authorize: Authorize, log: Logger): HttpHandler {
  const write = (res: ServerResponse, apiVersion: string, status: SubjectAccessReviewStatus) => {
    const body = encodeSubjectAccessReview(apiVersion, status);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  return (req, res) => {
    void (async () => {
      let body: string;
      try {
        body = await readBody(req);
      } catch (err) {
        return write(res, 'authorization.k8s.io/v1', erroredStatus(400, (err as Error).message));
      }
      const contentType = req.headers['content-type'] ?? '';
      if (contentType !== 'application/json') {
        return write(
          res,
          'authorization.k8s.io/v1',
          erroredStatus(400, `contentType=${contentType}, expected application/json`),
        );
      }
      let decoded: ReturnType<typeof decodeSubjectAccessReview>;
      try {
        decoded = decodeSubjectAccessReview(body);
      } catch (err) {
        if (!(err instanceof MalformedSubjectAccessReview)) throw err;
        log.info({ err: err.message }, 'Unable to decode the request');
        return write(res, 'authorization.k8s.io/v1', erroredStatus(400, err.message));
      }
      const { apiVersion, attributes } = decoded;
      try {
        const { decision, reason } = await withTimeout(authorize(attributes), DecisionTimeoutMs);
        log.debug(
          {
            user: attributes.user.name,
            verb: attributes.verb,
            resource: attributes.resource,
            name: attributes.name,
            decision,
            reason,
          },
          'Responding to request',
        );
        write(res, apiVersion, statusFor(decision, reason));
      } catch (err) {
        log.info(
          {
            user: attributes.user.name,
            verb: attributes.verb,
            resource: attributes.resource,
            err: (err as Error).message,
          },
          'Error when consulting authorizer for opinion',
        );
        write(res, apiVersion, erroredStatus(500, (err as Error).message));
      }
    })().catch((err: unknown) => {
      log.error({ err }, 'Authorization webhook failed');
      if (!res.headersSent)
        write(res, 'authorization.k8s.io/v1', erroredStatus(500, `panic: ${(err as Error).message} [recovered]`));
    });
  };
}
