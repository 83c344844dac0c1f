import { describe, expect, it } from 'vitest';
import { parseRoute } from './route.js';

describe('parseRoute', () => {
  it.each([
    ['/api', { type: 'legacy-versions' }],
    ['/apis/apps', { type: 'group', group: 'apps' }],
    ['/apis/apps/v1', { type: 'resource-list', group: 'apps', version: 'v1' }],
    ['/api/v1/namespaces', { type: 'resource', resource: 'namespaces', name: '', namespace: '' }],
    ['/api/v1/namespaces/garden', { type: 'resource', resource: 'namespaces', name: 'garden', namespace: '' }],
    [
      '/api/v1/namespaces/garden/status',
      { type: 'resource', resource: 'namespaces', name: 'garden', subresource: 'status' },
    ],
    ['/api/v1/namespaces/garden/pods', { type: 'resource', resource: 'pods', namespace: 'garden', name: '' }],
    [
      '/api/v1/namespaces/garden/pods/p/log',
      { type: 'resource', resource: 'pods', namespace: 'garden', name: 'p', subresource: 'log' },
    ],
    ['/apis/apps/v1/deployments', { type: 'resource', group: 'apps', resource: 'deployments', namespace: '' }],
    [
      '/apis/apps/v1/namespaces/a/deployments/d/scale',
      { type: 'resource', resource: 'deployments', name: 'd', subresource: 'scale' },
    ],
    [
      '/apis/core.gardener.cloud/v1beta1/namespaces/garden-dev/shoots/local',
      { type: 'resource', group: 'core.gardener.cloud', resource: 'shoots', name: 'local' },
    ],
    ['/openapi/v3/apis/apps/v1', { type: 'openapi', version: 'v3', path: 'apis/apps/v1' }],
    ['/apis/apps/v1/namespaces/a/deployments/d/scale/extra', { type: 'unknown' }],
  ])('%s', (path, want) => {
    expect(parseRoute(path)).toMatchObject(want);
  });
});
