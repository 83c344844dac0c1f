// The authorizer chain: each authorizer allows, denies or has no opinion; the first opinion decides and no
// opinion at the end is a denial (kube's union authorizer). An authorization webhook plugs in as another link.
import type { Attributes, Authorizer, Decision } from './attributes.js';

export class AuthorizerChain {
  constructor(private readonly authorizers: Authorizer[]) {}

  async authorize(a: Attributes): Promise<Decision> {
    for (const authorizer of this.authorizers) {
      const decision = await authorizer.authorize(a);
      if (decision) return decision;
    }
    return { allowed: false, reason: '' };
  }
}

/** Members of system:masters may do everything, without RBAC (kube's privileged group). */
export const superuserAuthorizer: Authorizer = {
  authorize: (a) => (a.user.groups.includes('system:masters') ? { allowed: true, reason: '' } : undefined),
};
