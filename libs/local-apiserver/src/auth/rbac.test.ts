import { describe, expect, it } from 'vitest';
import type { Attributes } from './attributes.js';
import { ruleAllows } from './rbac.js';

const user = { username: 'u', groups: [] };
const request = (
  verb: string,
  resource: string,
  extra: Partial<{ subresource: string; name: string; group: string }> = {},
): Attributes => ({
  user,
  kind: 'resource',
  resource: {
    verb,
    namespace: 'ns',
    group: extra.group ?? '',
    version: 'v1',
    resource,
    subresource: extra.subresource ?? '',
    name: extra.name ?? '',
  },
});

describe('RBAC rule matching', () => {
  it('matches verbs, groups and resources, with wildcards', () => {
    expect(ruleAllows({ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, request('get', 'pods'))).toBe(true);
    expect(ruleAllows({ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, request('list', 'pods'))).toBe(false);
    expect(
      ruleAllows(
        { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
        request('delete', 'deployments', { group: 'apps' }),
      ),
    ).toBe(true);
    expect(
      ruleAllows(
        { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
        request('get', 'deployments', { group: 'apps' }),
      ),
    ).toBe(false);
  });

  it('needs the subresource named, or */subresource', () => {
    expect(
      ruleAllows(
        { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
        request('get', 'pods', { subresource: 'log' }),
      ),
    ).toBe(false);
    expect(
      ruleAllows(
        { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] },
        request('get', 'pods', { subresource: 'log' }),
      ),
    ).toBe(true);
    expect(
      ruleAllows(
        { verbs: ['update'], apiGroups: ['*'], resources: ['*/scale'] },
        request('update', 'deployments', { subresource: 'scale', group: 'apps' }),
      ),
    ).toBe(true);
  });

  it('limits resourceNames to named requests', () => {
    const rule = { verbs: ['get', 'list'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] };
    expect(ruleAllows(rule, request('get', 'secrets', { name: 'a' }))).toBe(true);
    expect(ruleAllows(rule, request('get', 'secrets', { name: 'b' }))).toBe(false);
    expect(ruleAllows(rule, request('list', 'secrets'))).toBe(false);
  });

  it('matches non-resource URLs exactly or by a trailing *', () => {
    const path = (p: string): Attributes => ({ user, kind: 'path', verb: 'get', path: p });
    expect(ruleAllows({ verbs: ['get'], nonResourceURLs: ['/healthz'] }, path('/healthz'))).toBe(true);
    expect(ruleAllows({ verbs: ['get'], nonResourceURLs: ['/apis/*'] }, path('/apis/apps/v1'))).toBe(true);
    expect(ruleAllows({ verbs: ['get'], nonResourceURLs: ['/apis/*'] }, path('/metrics'))).toBe(false);
  });
});
