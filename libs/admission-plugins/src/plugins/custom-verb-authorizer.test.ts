import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runValidating } from '../chain.js';
import { CustomVerbAuthorizer } from './custom-verb-authorizer.js';
import type { AccessAttributes, UserInfo } from '../attributes.js';

describe('CustomVerbAuthorizer', () => {
  const asked: AccessAttributes[] = [];
  const onlyAdmins = async (user: UserInfo, resource: AccessAttributes) => {
    asked.push(resource);
    return user.username === 'admin';
  };

  it('needs modify-spec-tolerations-whitelist to change the toleration whitelist', async () => {
    const old = example('local/project.yaml');
    const next = example('local/project.yaml');
    next.spec.tolerations = { whitelist: [{ key: 'special-seed' }] };
    const refused = await runValidating(
      [CustomVerbAuthorizer],
      request('UPDATE', next, old, 'member'),
      staticListers([], onlyAdmins),
    );
    expect(!refused.allowed && refused.message).toBe(
      'projects.core.gardener.cloud "local" is forbidden: user "member" is not allowed to modify spec.tolerations.whitelist: it needs the "modify-spec-tolerations-whitelist" verb on projects',
    );
    expect(asked.at(-1)).toEqual({
      verb: 'modify-spec-tolerations-whitelist',
      group: 'core.gardener.cloud',
      resource: 'projects',
      name: 'local',
    });
    expect(
      (
        await runValidating(
          [CustomVerbAuthorizer],
          request('UPDATE', next, old, 'admin'),
          staticListers([], onlyAdmins),
        )
      ).allowed,
    ).toBe(true);
  });

  it('needs manage-members to change members, and asks nothing for other changes', async () => {
    const old = example('local/project.yaml');
    const next = example('local/project.yaml');
    next.spec.members = [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob', role: 'admin' }];
    const refused = await runValidating(
      [CustomVerbAuthorizer],
      request('UPDATE', next, old, 'member'),
      staticListers([], onlyAdmins),
    );
    expect(!refused.allowed && refused.message).toContain(
      'is not allowed to manage members: it needs the "manage-members" verb',
    );
    const before = asked.length;
    const relabelled = { ...old, metadata: { ...old.metadata, labels: { team: 'a' } } };
    expect(
      (
        await runValidating(
          [CustomVerbAuthorizer],
          request('UPDATE', relabelled, old, 'member'),
          staticListers([], onlyAdmins),
        )
      ).allowed,
    ).toBe(true);
    expect(asked.length).toBe(before);
  });
});
