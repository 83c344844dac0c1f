import { describe, expect, it } from 'vitest';
import type { ResourceDefinition } from '../registry/types.js';
import { getScale } from './scale.js';

/** A resource with the scale subresource of apps/v1 Deployments. */
const deployments = {
  group: 'apps',
  version: 'v1',
  resource: 'deployments',
  subresources: {
    scale: {
      specReplicasPath: '.spec.replicas',
      statusReplicasPath: '.status.replicas',
      labelSelectorPath: '.spec.selector',
    },
  },
} as unknown as ResourceDefinition;

const deployment = (selector: unknown) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default', uid: 'u', resourceVersion: '7' },
  spec: { replicas: 3, selector },
  status: { replicas: 2 },
});

describe('getScale', () => {
  it("serves the selector as kube's LabelSelectorAsSelector(...).String(): sorted by key, values sorted", () => {
    const scale = getScale(
      deployments,
      deployment({
        matchLabels: { zone: 'a', app: 'web' },
        matchExpressions: [
          { key: 'tier', operator: 'NotIn', values: ['db', 'cache'] },
          { key: 'legacy', operator: 'DoesNotExist' },
          { key: 'canary', operator: 'Exists' },
        ],
      }),
    );
    expect(scale.spec).toEqual({ replicas: 3 });
    expect(scale.status).toEqual({ replicas: 2, selector: 'app=web,canary,!legacy,tier notin (cache,db),zone=a' });
  });

  it('serves a selector that is already text as it is, and an empty selector as empty', () => {
    expect(getScale(deployments, deployment('app=web')).status.selector).toBe('app=web');
    expect(getScale(deployments, deployment({})).status.selector).toBe('');
  });

  it('fails with an internal error on a selector that does not convert, as kube does', () => {
    expect(() => getScale(deployments, deployment({ matchExpressions: [{ key: 'a', operator: 'Gt' }] }))).toThrow(
      /Internal error occurred: "Gt" is not a valid label selector operator/,
    );
  });
});
