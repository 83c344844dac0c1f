import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runChain } from '../chain.js';
import { ProjectMutator, ProjectValidator } from './project.js';

const chain = [ProjectMutator, ProjectValidator];

describe('ProjectMutator and ProjectValidator', () => {
  it('records the creating user as createdBy and owner', async () => {
    const result = await runChain(chain, request('CREATE', example('local/project.yaml')), staticListers([]));
    expect(result.allowed && result.object?.spec).toEqual({
      namespace: 'garden-local',
      createdBy: { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice@example.com' },
      owner: { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice@example.com' },
    });
  });

  it('keeps an owner that is given', async () => {
    const project = example('local/project.yaml');
    project.spec.owner = { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' };
    const result = await runChain(chain, request('CREATE', project), staticListers([]));
    expect(result.allowed && result.object?.spec.owner.name).toBe('bob');
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
