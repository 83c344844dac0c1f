import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runChain } from '../chain.js';
import { ProjectMutator, ProjectValidator } from './project.js';

const chain = [ProjectMutator, ProjectValidator];
const subject = (name: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name });
const [alice, bob, carol] = ['alice@example.com', 'bob', 'carol'].map(subject);

describe('ProjectMutator and ProjectValidator', () => {
  it('records the creating user as createdBy and owner, and makes the owner a member (admin and owner)', async () => {
    const result = await runChain(chain, request('CREATE', example('local/project.yaml')), staticListers([]));
    expect(result.allowed && result.object?.spec).toEqual({
      namespace: 'garden-local',
      createdBy: alice,
      owner: alice,
      // Gardener's internal roles [admin, owner] as its conversion stores them in v1beta1.
      members: [{ ...alice, role: 'admin', roles: ['owner'] }],
    });
  });

  it('keeps an owner that is given and adds it as a member; the creator is always the requesting user', async () => {
    const project = example('local/project.yaml');
    project.spec.owner = bob;
    project.spec.createdBy = bob;
    const result = await runChain(chain, request('CREATE', project), staticListers([]));
    expect(result.allowed && result.object?.spec).toMatchObject({
      createdBy: alice,
      owner: bob,
      members: [{ ...bob, role: 'admin', roles: ['owner'] }],
    });
  });

  it('takes the first member holding the owner role as owner and leaves it a member as it is', async () => {
    const project = example('local/project.yaml');
    project.spec.members = [
      { ...bob, role: 'viewer' },
      { ...carol, role: 'admin', roles: ['owner'] },
    ];
    const result = await runChain(chain, request('CREATE', project), staticListers([]));
    expect(result.allowed && result.object?.spec).toMatchObject({ owner: carol, members: project.spec.members });
  });

  it('gives a new owner the owner role on UPDATE and takes it from the old one; skips objects in deletion', async () => {
    const created = await runChain(chain, request('CREATE', example('local/project.yaml')), staticListers([]));
    if (!created.allowed) throw new Error(created.message);
    const old = created.object!;
    const changed = structuredClone(old);
    changed.spec.owner = bob;
    changed.spec.members.push({ ...bob, role: 'viewer' });
    const result = await runChain(chain, request('UPDATE', changed, old), staticListers([]));
    expect(result.allowed && result.object?.spec.members).toEqual([
      { ...alice, role: 'admin' },
      { ...bob, role: 'viewer', roles: ['owner'] },
    ]);
    changed.metadata!.deletionTimestamp = '2026-01-01T00:00:00Z';
    expect(await runChain(chain, request('UPDATE', changed, old), staticListers([]))).toEqual({
      allowed: true,
      warnings: [],
    });
  });

  it('refuses a namespace outside garden-*', async () => {
    const project = example('local/project.yaml');
    project.spec.namespace = 'team-a';
    expect(await runChain(chain, request('CREATE', project), staticListers([]))).toMatchObject({
      allowed: false,
      code: 403,
      message: 'projects.core.gardener.cloud "local" is forbidden: .spec.namespace must start with garden-',
    });
    project.spec.namespace = 'garden';
    expect((await runChain(chain, request('CREATE', project), staticListers([]))).allowed).toBe(true);
  });
});
