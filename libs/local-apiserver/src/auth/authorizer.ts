// The authorizer chain: each authorizer allows, denies or has no opinion; the first opinion decides and no
// opinion at the end is a denial whose reason joins the reasons the authorizers gave (kube's union authorizer). An
// authorization webhook plugs in as another link. For SelfSubjectRulesReview the chain also unions what each
// authorizer can enumerate of a user's rules.
import type { Attributes, Authorizer, Decision, RuleSet } from './attributes.js';
import type { UserInfo } from '../server/context.js';

export class AuthorizerChain {
  constructor(private readonly authorizers: Authorizer[]) {}

  async authorize(a: Attributes): Promise<Decision> {
    const reasons: string[] = [];
    for (const authorizer of this.authorizers) {
      const decision = await authorizer.authorize(a);
      if (!decision) continue;
      if (decision.allowed || decision.denied) return decision;
      if (decision.reason) reasons.push(decision.reason);
    }
    return { allowed: false, reason: reasons.join('\n') };
  }

  /**
   * kube's union RulesFor: every authorizer's rules in chain order, incomplete if any authorizer is, and the
   * authorizers' errors joined as Go's aggregate error prints them (one: itself; several: `[a, b]`).
   */
  rulesFor(user: UserInfo, namespace: string): RuleSet {
    const all: RuleSet = { resourceRules: [], nonResourceRules: [], incomplete: false };
    const errors: string[] = [];
    for (const authorizer of this.authorizers) {
      const rules = authorizer.rulesFor?.(user, namespace);
      if (!rules) continue;
      all.resourceRules.push(...rules.resourceRules);
      all.nonResourceRules.push(...rules.nonResourceRules);
      all.incomplete ||= rules.incomplete;
      if (rules.error) errors.push(rules.error);
    }
    if (errors.length === 1) all.error = errors[0];
    else if (errors.length > 1) all.error = `[${errors.join(', ')}]`;
    return all;
  }
}

const SUPERUSER = 'system:masters';

/** Members of system:masters may do everything, without RBAC (kube's privileged group). */
export const superuserAuthorizer: Authorizer = {
  authorize: (a) => (a.user.groups.includes(SUPERUSER) ? { allowed: true, reason: '' } : undefined),
  rulesFor: (user) =>
    user.groups.includes(SUPERUSER)
      ? {
          resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
          nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
          incomplete: false,
        }
      : { resourceRules: [], nonResourceRules: [], incomplete: false },
};
