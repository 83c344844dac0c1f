// gardener-admission-controller's resource size validator (pkg/admissioncontroller/webhook/admission/resourcesize):
// objects of the resources named in `server.resourceAdmissionConfiguration.limits` may not exceed their `size` on
// CREATE and UPDATE, unless the requester is one of the `unrestrictedSubjects`; `operationMode: log` only warns.
import type { AdmissionControllerConfiguration } from '@gardener-ts/component-config';
import { parseQuantity } from '@gardener-ts/api';
import { allow, forbidden, type AdmissionAttributes, type AdmissionDecision } from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';

type ResourceAdmissionConfiguration = AdmissionControllerConfiguration['server']['resourceAdmissionConfiguration'];

const matches = (patterns: readonly string[] | undefined, value: string) =>
  !patterns || patterns.length === 0 || patterns.includes('*') || patterns.includes(value);

/** Whether the requester is exempt (a User, Group or ServiceAccount subject). */
export function isUnrestricted(
  a: AdmissionAttributes,
  subjects: ResourceAdmissionConfiguration['unrestrictedSubjects'],
): boolean {
  const user = a.userInfo.username ?? '';
  const groups = a.userInfo.groups ?? [];
  return subjects.some((s) => {
    if (s.kind === 'User') return s.name === user;
    if (s.kind === 'Group') return groups.includes(s.name);
    return user === `system:serviceaccount:${s.namespace ?? ''}:${s.name}`;
  });
}

/** The size limit (bytes) for the request's resource, or undefined. */
export function sizeLimitFor(a: AdmissionAttributes, config: ResourceAdmissionConfiguration): number | undefined {
  const resource = a.subresource ? `${a.resource.resource}/${a.subresource}` : a.resource.resource;
  const limit = config.limits.find(
    (l) =>
      matches(l.apiGroups, a.resource.group) &&
      matches(l.apiVersions, a.resource.version) &&
      matches(l.resources, resource) &&
      l.size !== undefined,
  );
  return limit?.size === undefined ? undefined : parseQuantity(limit.size);
}

/** The resource size validator, configured from the AdmissionControllerConfiguration. */
export function resourceSizeValidator(config: ResourceAdmissionConfiguration): AdmissionPlugin {
  return {
    name: 'ResourceSize',
    handles: (a) =>
      (a.operation === 'CREATE' || a.operation === 'UPDATE') && Boolean(a.object) && config.limits.length > 0,
    validate(a): AdmissionDecision {
      const limit = sizeLimitFor(a, config);
      if (limit === undefined || isUnrestricted(a, config.unrestrictedSubjects)) return allow();
      const size = Buffer.byteLength(JSON.stringify(a.object));
      if (size <= limit) return allow();
      const message = `resource size exceeded: ${size} bytes > ${limit} bytes`;
      if (config.operationMode === 'log') return { allowed: true, warnings: [message] };
      return forbidden(a, message);
    },
  };
}
