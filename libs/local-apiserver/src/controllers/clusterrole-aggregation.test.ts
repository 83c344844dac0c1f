import { describe, expect, it } from 'vitest';
import { aggregatedRules } from './clusterrole-aggregation.js';

const clusterRole = (name: string, labels: Record<string, string>, rules: object[], aggregate?: string) => ({
  metadata: { name, labels },
  rules,
  ...(aggregate
    ? {
        aggregationRule: {
          clusterRoleSelectors: [{ matchLabels: { [`rbac.authorization.k8s.io/aggregate-to-${aggregate}`]: 'true' } }],
        },
      }
    : {}),
});

describe('ClusterRole aggregation', () => {
  it('unions the rules of matching roles in name order, without duplicates or itself', () => {
    const pods = { apiGroups: [''], resources: ['pods'], verbs: ['get'] };
    const widgets = { apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get'] };
    const view = clusterRole(
      'view',
      { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' },
      [{ stale: true }],
      'view',
    );
    const all = [
      view,
      clusterRole('z-widgets', { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' }, [widgets, pods]),
      clusterRole('a-core', { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' }, [pods]),
      clusterRole('unrelated', { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' }, [
        { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
      ]),
    ];
    expect(aggregatedRules(view, all)).toEqual([pods, widgets]);
  });

  it('nests: edit aggregates the rules view holds', () => {
    const viewRules = [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }];
    const view = clusterRole('view', { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' }, viewRules, 'view');
    const edit = clusterRole('edit', {}, [], 'edit');
    expect(aggregatedRules(edit, [view, edit])).toEqual(viewRules);
  });
});
