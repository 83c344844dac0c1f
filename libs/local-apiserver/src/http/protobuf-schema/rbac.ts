// rbac.authorization.k8s.io/v1: Role, ClusterRole, RoleBinding, ClusterRoleBinding (see notation.ts).
import type { MessageTable } from './notation.js';
import { META, RBAC } from './notation.js';

const OBJECT_META = `metadata 1 ${META}.ObjectMeta`;

export const RBAC_MESSAGES: MessageTable = {
  [`${RBAC}.PolicyRule`]: [
    'verbs 1 repeated string',
    'apiGroups 2 repeated string',
    'resources 3 repeated string',
    'resourceNames 4 repeated string',
    'nonResourceURLs 5 repeated string',
  ],
  [`${RBAC}.Role`]: [OBJECT_META, 'rules 2 repeated *PolicyRule'],
  [`${RBAC}.ClusterRole`]: [OBJECT_META, 'rules 2 repeated *PolicyRule', 'aggregationRule 3 AggregationRule'],
  [`${RBAC}.AggregationRule`]: [`clusterRoleSelectors 1 repeated ${META}.LabelSelector`],
  [`${RBAC}.Subject`]: ['kind 1 string', 'apiGroup 2 string', 'name 3 string', 'namespace 4 string'],
  [`${RBAC}.RoleRef`]: ['apiGroup 1 *string', 'kind 2 string', 'name 3 string'],
  [`${RBAC}.RoleBinding`]: [OBJECT_META, 'subjects 2 repeated Subject', 'roleRef 3 RoleRef'],
  [`${RBAC}.ClusterRoleBinding`]: [OBJECT_META, 'subjects 2 repeated Subject', 'roleRef 3 RoleRef'],
};
