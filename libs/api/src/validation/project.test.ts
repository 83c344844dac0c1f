// validateProject over Gardener's internal view of the members, and the conversion round trip of members
// (normalizeProjectMembers) that defaultProject applies.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Project } from '../core/v1beta1/project.js';
import { defaultProject, normalizeProjectMembers, projectMemberRoles } from '../defaulting/project.js';
import { validateProject } from './project.js';

const rbac = 'rbac.authorization.k8s.io';
const user = (name: string) => ({ apiGroup: rbac, kind: 'User', name });
const project = (spec: Project['spec']): Project => ({ metadata: { name: 'dev' }, spec });
const messages = (p: Project, old?: Project) => validateProject(p, old).map((e) => e.message);

describe('validateProject', () => {
  it('accepts the owner role in roles (how Gardener stores an owner that joined as admin)', () => {
    const p = project({ owner: user('alice'), members: [{ ...user('alice'), role: 'admin', roles: ['owner'] }] });
    expect(messages(p)).toEqual([]);
  });

  it('refuses a second member holding the owner role, at the internal roles path', () => {
    const p = project({
      members: [
        { ...user('alice'), role: 'owner' },
        { ...user('bob'), role: 'admin', roles: ['owner'] },
      ],
    });
    expect(messages(p)).toEqual([
      'spec.members[1].roles[1]: Forbidden: cannot have more than one member having the owner role',
    ]);
  });

  it('checks roles as Gardener’s internal list: duplicates, extension role names', () => {
    const p = project({
      members: [
        {
          ...user('alice'),
          role: 'admin',
          roles: ['viewer', 'viewer', 'extension:a/b', `extension:${'x'.repeat(21)}`],
        },
      ],
    });
    expect(messages(p)).toEqual([
      'spec.members[0].roles[2]: Duplicate value: "viewer"',
      `spec.members[0].roles[3]: Invalid value: "extension:a/b": may not contain '/'`,
      `spec.members[0].roles[4]: Too long: may not be more than 20 bytes`,
    ]);
    // The main role repeated in roles is dropped by the conversion, not a duplicate.
    expect(messages(project({ members: [{ ...user('alice'), role: 'admin', roles: ['admin'] }] }))).toEqual([]);
  });

  it('validates subjects as Gardener’s ValidateSubject', () => {
    const p = project({
      owner: { kind: 'User', name: 'alice' },
      members: [
        { kind: 'ServiceAccount', apiGroup: rbac, name: 'robot', role: 'viewer' },
        { ...user('system:serviceaccount:broken'), role: 'viewer' },
      ],
    });
    expect(messages(p)).toEqual([
      'spec.members[0].apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: ""',
      'spec.members[0].namespace: Required value',
      'spec.members[1].name: Invalid value: "system:serviceaccount:broken": unsupported service account user name: "system:serviceaccount:broken"',
      'spec.owner.apiGroup: Unsupported value: "": supported values: "rbac.authorization.k8s.io"',
    ]);
  });

  it('treats a user named after a service account as that service account (duplicate members)', () => {
    const p = project({
      members: [
        { kind: 'ServiceAccount', apiGroup: '', namespace: 'garden-dev', name: 'robot', role: 'viewer' },
        { ...user('system:serviceaccount:garden-dev:robot'), role: 'admin' },
      ],
    });
    expect(messages(p)).toEqual([expect.stringMatching(/^spec\.members\[1\]: Duplicate value: /)]);
  });

  it('refuses resetting the owner and empty description or purpose', () => {
    const old = project({ owner: user('alice') });
    expect(messages(project({ description: '', purpose: '' }), old)).toEqual([
      'spec.description: Required value: must provide a description when key is present',
      'spec.purpose: Required value: must provide a purpose when key is present',
      'spec.owner: Invalid value: "null": owner cannot be reset',
    ]);
  });
});

describe('the members’ conversion round trip', () => {
  it('gives the owner the owner role and takes it from everyone else', () => {
    const p = defaultProject(
      project({
        owner: { kind: 'User', name: 'alice' },
        members: [
          { kind: 'User', name: 'bob', role: 'owner', roles: ['viewer'] },
          { kind: 'User', name: 'alice', role: 'admin' },
          { kind: 'User', name: 'carol', role: 'owner' },
        ],
      }),
    );
    expect(p.spec!.members).toEqual([
      { ...user('bob'), role: 'viewer' },
      { ...user('alice'), role: 'admin', roles: ['owner'] },
      { ...user('carol'), role: '' },
    ]);
    expect(validateProject(p)).toEqual([]);
  });

  it('drops the main role from roles and leaves members without an owner as they are otherwise', () => {
    const members = [{ ...user('bob'), role: 'admin', roles: ['admin', 'owner'] }];
    expect(normalizeProjectMembers({ members })).toEqual([{ ...user('bob'), role: 'admin', roles: ['owner'] }]);
    const unchanged = [{ ...user('bob'), role: 'admin', roles: ['owner'] }];
    expect(normalizeProjectMembers({ members: unchanged })).toBe(unchanged);
  });

  const role = fc.constantFrom('owner', 'admin', 'viewer', 'uam', 'serviceaccountmanager', 'extension:x', '');
  const member = fc.record({
    kind: fc.constant('User'),
    apiGroup: fc.constant(rbac),
    name: fc.constantFrom('alice', 'bob', 'carol'),
    role,
    // Repeated roles are refused by validation (Duplicate value), so stored members never have them.
    roles: fc.option(
      fc.uniqueArray(
        role.filter((r) => r !== ''),
        { maxLength: 4 },
      ),
      { nil: undefined },
    ),
  });
  const spec = fc.record({
    owner: fc.option(fc.constantFrom('alice', 'bob', 'dave').map(user), { nil: undefined }),
    members: fc.array(member, { maxLength: 4 }),
  });

  it('is idempotent, keeps every member’s role set but the owner role, and leaves one owner at most', () => {
    fc.assert(
      fc.property(spec, (s) => {
        const once = normalizeProjectMembers(s)!;
        expect(normalizeProjectMembers({ ...s, members: once })).toBe(once);
        once.forEach((m, i) => {
          const without = (roles: string[]) => new Set(roles.filter((r) => r !== 'owner'));
          expect(without(projectMemberRoles(m))).toEqual(without(projectMemberRoles(s.members[i]!)));
          if (s.owner) expect(projectMemberRoles(m).includes('owner')).toBe(m.name === s.owner.name);
        });
      }),
    );
  });
});
