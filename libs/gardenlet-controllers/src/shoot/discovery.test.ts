import { describe, expect, it } from 'vitest';
import { preferredAPIResources, preferredGroupVersions } from './discovery.js';

describe('preferred API resources', () => {
  it('reads v1 and the preferred version of each group, leaving out a group it cannot read', async () => {
    const documents: Record<string, unknown> = {
      '/api/v1': { resources: [{ name: 'pods', verbs: ['get'] }] },
      '/apis': {
        groups: [
          { name: 'apps', preferredVersion: { groupVersion: 'apps/v1' }, versions: [{ groupVersion: 'apps/v1' }] },
          { name: 'broken', preferredVersion: { groupVersion: 'broken/v1' } },
        ],
      },
      '/apis/apps/v1': { resources: [{ name: 'deployments', verbs: ['list'] }] },
    };
    const transport = {
      request: async <T>({ path }: { path: string }): Promise<T> => {
        if (!(path in documents)) throw new Error(`503 ${path}`);
        return documents[path] as T;
      },
    };
    expect(await preferredAPIResources(transport as never)).toEqual({
      lists: [
        { groupVersion: 'v1', resources: [{ name: 'pods', verbs: ['get'] }] },
        { groupVersion: 'apps/v1', resources: [{ name: 'deployments', verbs: ['list'] }] },
      ],
      failed: ['broken/v1'],
    });
    expect(preferredGroupVersions({ groups: [{ name: 'x', versions: [{ groupVersion: 'x/v2' }] }] })).toEqual(['x/v2']);
  });
});
