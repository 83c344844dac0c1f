// The SeedAuthorizer as an authorization webhook: SubjectAccessReview v1 in, its `status` out. Users that are neither
// gardenlets nor extensions of a seed get no opinion, so the API server's other authorizers decide for them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@gardener-ts/logging';
import type { Listers } from '../attributes.js';
import {
  authorizeSeed,
  seedIdentityOfUser,
  type AuthorizationDecision,
  type ResourceAttributes,
} from './seed-authorizer.js';

interface SubjectAccessReview {
  apiVersion?: string;
  kind?: string;
  spec?: {
    user?: string;
    groups?: string[];
    resourceAttributes?: ResourceAttributes;
    nonResourceAttributes?: { path?: string; verb?: string };
  };
}

/** The status of the review: `allowed` for the gardenlet's own objects, no opinion otherwise. */
export async function reviewSubjectAccess(
  review: SubjectAccessReview,
  listers: Listers,
): Promise<{ allowed: boolean; reason?: string }> {
  const spec = review.spec ?? {};
  const identity = seedIdentityOfUser(spec.user, spec.groups);
  if (!identity) return { allowed: false };
  if (!spec.resourceAttributes)
    return { allowed: false, reason: 'non-resource requests are not handled for seed clients' };
  const decision: AuthorizationDecision = await authorizeSeed(
    identity.seed,
    spec.resourceAttributes,
    listers,
    identity.userType,
  );
  return { allowed: decision.decision === 'allow', reason: decision.reason };
}

/** An HTTP handler for the webhook server (`server.handle('/webhooks/auth/seed', ...)`). */
export function seedAuthorizerHandler(listers: Listers, log?: Logger) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let review: SubjectAccessReview;
    try {
      review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as SubjectAccessReview;
      if (review.kind !== 'SubjectAccessReview')
        throw new Error(`expected kind SubjectAccessReview, got ${JSON.stringify(review.kind)}`);
    } catch (err) {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: (err as Error).message }));
      return;
    }
    const status = await reviewSubjectAccess(review, listers);
    if (review.spec?.user && status.reason) log?.debug({ user: review.spec.user, ...status }, 'Seed authorization');
    const body = JSON.stringify({
      apiVersion: review.apiVersion ?? 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      status,
    });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  };
}
