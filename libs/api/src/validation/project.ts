// validateProject, validateQuota, validateSecretBinding, validateCredentialsBinding, validateExposureClass.
import type { ExposureClass, Project, Quota, SecretBinding } from '../core/v1beta1/project.js';
import type { CredentialsBinding } from '../security/v1alpha1/credentialsbinding.js';
import { projectMemberRoles, ProjectMemberOwnerRole } from '../defaulting/project.js';
import {
  duplicate,
  type FieldError,
  FieldPath,
  forbidden,
  immutable,
  invalid,
  notSupported,
  required,
  tooLong,
} from './field.js';
import { validateQuantity, validateTolerations, validateUnique } from './common.js';
import { dns1123SubdomainErrors, validateDNS1123Label, validateObjectMeta, validateObjectMetaUpdate } from './names.js';

const spec = FieldPath.root('spec');
const rbacGroup = 'rbac.authorization.k8s.io';
const subjectKinds = ['ServiceAccount', 'User', 'Group'];
/** Gardener's supported member roles, sorted as its `sets.List` returns them. */
const projectRoles = ['admin', 'owner', 'serviceaccountmanager', 'uam', 'viewer'];
const extensionRolePrefix = 'extension:';
const extensionRoleMaxLength = 20;
const serviceAccountUsernamePrefix = 'system:serviceaccount:';
const maxProjectNameLength = 10;

function immutableField(errors: FieldError[], path: FieldPath, value: unknown, old: unknown): void {
  if (old !== undefined && JSON.stringify(value) !== JSON.stringify(old)) errors.push(immutable(path, value));
}

function validateProjectName(name: string, path: FieldPath): FieldError[] {
  const errors = validateDNS1123Label(name, path);
  if (name.length > maxProjectNameLength) errors.push(tooLong(path, name, maxProjectNameLength));
  if (name.includes('--')) errors.push(invalid(path, name, 'name may not contain two consecutive hyphens'));
  return errors;
}

type Subject = { kind?: string; apiGroup?: string; name?: string; namespace?: string };

/** Gardener's ValidateSubject: an RBAC subject (owner, creator, member). */
function validateSubject(subject: Subject, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  if (!subject.name) errors.push(required(path.child('name')));
  switch (subject.kind) {
    case 'ServiceAccount':
      for (const msg of subject.name ? dns1123SubdomainErrors(subject.name) : [])
        errors.push(invalid(path.child('name'), subject.name, msg));
      if (subject.apiGroup) errors.push(notSupported(path.child('apiGroup'), subject.apiGroup, ['']));
      if (!subject.namespace) errors.push(required(path.child('namespace')));
      break;
    case 'User':
    case 'Group':
      if (subject.apiGroup !== rbacGroup)
        errors.push(notSupported(path.child('apiGroup'), subject.apiGroup ?? '', [rbacGroup]));
      break;
    default:
      errors.push(notSupported(path.child('kind'), subject.kind ?? '', subjectKinds));
  }
  return errors;
}

/**
 * The identity of a member (Gardener's ProjectMemberProperties/ProjectMemberId): a User named
 * `system:serviceaccount:<ns>:<name>` is that ServiceAccount. A string is the error for a malformed such name.
 */
function memberId(member: Subject): { id: string } | string {
  const { apiGroup = '', kind = '', namespace = '', name = '' } = member;
  if (kind === 'User' && name.startsWith(serviceAccountUsernamePrefix)) {
    const parts = name.split(':');
    if (parts.length < 4) return `unsupported service account user name: ${JSON.stringify(name)}`;
    return { id: ['', 'ServiceAccount', parts[2], parts[3]].join('_') };
  }
  return { id: [apiGroup, kind, namespace, name].join('_') };
}

/** kube's IsValidPathSegmentName (an extension role name becomes part of a ClusterRole name). */
function pathSegmentErrors(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return ['/', '%'].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
}

/**
 * Gardener's ValidateProjectMember over the member's internal role list (`role` first, then `roles`, as
 * gardener-apiserver converts v1beta1 members): the paths name `roles[j]` of that list, as Gardener's do.
 */
function validateMemberRoles(roles: readonly string[], path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const found = new Set<string>();
  roles.forEach((role, j) => {
    const rolePath = path.child('roles').index(j);
    if (found.has(role)) errors.push(duplicate(rolePath, role));
    found.add(role);
    const extension = role.startsWith(extensionRolePrefix);
    if (!projectRoles.includes(role) && !extension)
      errors.push(notSupported(rolePath, role, [...projectRoles, `${extensionRolePrefix}*`]));
    if (extension) {
      const name = role.slice(extensionRolePrefix.length);
      if (name.length > extensionRoleMaxLength) errors.push(tooLong(rolePath, role, extensionRoleMaxLength));
      const segmentErrors = pathSegmentErrors(name);
      if (segmentErrors.length > 0) errors.push(invalid(rolePath, role, segmentErrors.join(', ')));
    }
  });
  return errors;
}

/** Gardener's ValidateProject (and ValidateProjectUpdate with `old`). */
export function validateProject(project: Project, old?: Project): FieldError[] {
  const errors = old ? validateObjectMetaUpdate(project.metadata, old.metadata) : [];
  errors.push(...validateObjectMeta(project.metadata, { namespaced: false, name: validateProjectName }));
  const s = project.spec ?? {};
  if (s.namespace !== undefined) errors.push(...validateDNS1123Label(s.namespace, spec.child('namespace')));
  const ids = new Set<string>();
  let ownerFound = false;
  (s.members ?? []).forEach((member, i) => {
    const p = spec.child('members').index(i);
    const id = memberId(member);
    if (typeof id === 'string') {
      errors.push(invalid(p.child('name'), member.name, id));
      return;
    }
    if (ids.has(id.id)) errors.push(duplicate(p, member));
    ids.add(id.id);
    errors.push(...validateSubject(member, p));
    const roles = projectMemberRoles(member);
    errors.push(...validateMemberRoles(roles, p));
    roles.forEach((role, j) => {
      if (role !== ProjectMemberOwnerRole) return;
      if (ownerFound)
        errors.push(forbidden(p.child('roles').index(j), 'cannot have more than one member having the owner role'));
      ownerFound = true;
    });
  });
  if (s.createdBy) errors.push(...validateSubject(s.createdBy, spec.child('createdBy')));
  if (s.owner) errors.push(...validateSubject(s.owner, spec.child('owner')));
  if (s.description === '')
    errors.push(required(spec.child('description'), 'must provide a description when key is present'));
  if (s.purpose === '') errors.push(required(spec.child('purpose'), 'must provide a purpose when key is present'));
  errors.push(...validateTolerations(s.tolerations?.defaults, spec.child('tolerations', 'defaults')));
  errors.push(...validateTolerations(s.tolerations?.whitelist, spec.child('tolerations', 'whitelist')));
  if (old) {
    immutableField(errors, spec.child('createdBy'), s.createdBy, old.spec?.createdBy);
    immutableField(errors, spec.child('namespace'), s.namespace, old.spec?.namespace);
    // Go prints the nil pointer as "null" (quoted, as a string).
    if (old.spec?.owner && !s.owner) errors.push(invalid(spec.child('owner'), 'null', 'owner cannot be reset'));
  }
  return errors;
}

const quotaMetrics = ['cpu', 'gpu', 'memory', 'storage.standard', 'storage.premium', 'loadbalancer'];

export function validateQuota(quota: Quota, old?: Quota): FieldError[] {
  const errors = validateObjectMeta(quota.metadata, { namespaced: true });
  const s = quota.spec;
  if (!s) return [...errors, required(spec)];
  const scope = `${s.scope?.apiVersion}/${s.scope?.kind}`;
  const scopes = [
    'core.gardener.cloud/v1beta1/Project',
    'v1/Secret',
    'security.gardener.cloud/v1alpha1/WorkloadIdentity',
  ];
  if (!scopes.includes(scope)) errors.push(notSupported(spec.child('scope'), scope, scopes));
  if (!s.metrics || Object.keys(s.metrics).length === 0)
    errors.push(required(spec.child('metrics'), 'must provide at least one metric'));
  for (const [name, value] of Object.entries(s.metrics ?? {})) {
    if (!quotaMetrics.includes(name)) errors.push(notSupported(spec.child('metrics').key(name), name, quotaMetrics));
    errors.push(...validateQuantity(value, spec.child('metrics').key(name)));
  }
  if (s.clusterLifetimeDays !== undefined && s.clusterLifetimeDays <= 0) {
    errors.push(invalid(spec.child('clusterLifetimeDays'), s.clusterLifetimeDays, 'must be greater than 0'));
  }
  if (old) {
    errors.push(...validateObjectMetaUpdate(quota.metadata, old.metadata));
    immutableField(errors, spec.child('scope'), s.scope, old.spec.scope);
  }
  return errors;
}

function validateQuotaRefs(
  quotas: readonly { name?: string; namespace?: string }[] | undefined,
  path: FieldPath,
): FieldError[] {
  const errors: FieldError[] = [];
  (quotas ?? []).forEach((quota, i) => {
    if (!quota.name) errors.push(required(path.index(i).child('name'), 'must provide a name'));
  });
  errors.push(...validateUnique(quotas, path, (q) => `${q.namespace ?? ''}/${q.name}`));
  return errors;
}

export function validateSecretBinding(binding: SecretBinding, old?: SecretBinding): FieldError[] {
  const errors = validateObjectMeta(binding.metadata, { namespaced: true });
  const path = FieldPath.root('secretRef');
  if (!binding.secretRef?.name) errors.push(required(path.child('name'), 'must provide a name'));
  if (binding.secretRef?.namespace !== undefined)
    errors.push(...validateDNS1123Label(binding.secretRef.namespace, path.child('namespace')));
  if (binding.provider && !binding.provider.type)
    errors.push(required(FieldPath.root('provider', 'type'), 'must specify a provider type'));
  errors.push(...validateQuotaRefs(binding.quotas, FieldPath.root('quotas')));
  if (old) {
    errors.push(...validateObjectMetaUpdate(binding.metadata, old.metadata));
    immutableField(errors, path, binding.secretRef, old.secretRef);
    immutableField(errors, FieldPath.root('quotas'), binding.quotas, old.quotas);
    immutableField(errors, FieldPath.root('provider'), binding.provider, old.provider);
  }
  return errors;
}

/** Gardener's ValidateCredentialsRef: a Secret or WorkloadIdentity, named and namespaced. */
const credentialsKinds = ['v1/Secret', 'security.gardener.cloud/v1alpha1/WorkloadIdentity'];

function validateCredentialsRef(ref: CredentialsBinding['credentialsRef'] | undefined, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  if (!ref?.apiVersion) errors.push(required(path.child('apiVersion'), 'must provide an apiVersion'));
  if (!ref?.kind) errors.push(required(path.child('kind'), 'must provide a kind'));
  if (!ref?.name) errors.push(required(path.child('name'), 'must provide a name'));
  for (const msg of dns1123SubdomainErrors(ref?.name ?? ''))
    errors.push(invalid(path.child('name'), ref?.name ?? '', msg));
  if (!ref?.namespace) errors.push(required(path.child('namespace'), 'must provide a namespace'));
  for (const msg of dns1123SubdomainErrors(ref?.namespace ?? ''))
    errors.push(invalid(path.child('namespace'), ref?.namespace ?? '', msg));
  // Go prints the kinds as "/v1, Kind=Secret"; this library names them apiVersion/kind.
  const gvk = `${ref?.apiVersion ?? ''}/${ref?.kind ?? ''}`;
  if (!credentialsKinds.includes(gvk)) errors.push(notSupported(path, gvk, credentialsKinds));
  return errors;
}

export function validateCredentialsBinding(binding: CredentialsBinding, old?: CredentialsBinding): FieldError[] {
  const errors: FieldError[] = [];
  if (old) {
    errors.push(...validateObjectMetaUpdate(binding.metadata, old.metadata));
    immutableField(errors, FieldPath.root('credentialsRef'), binding.credentialsRef, old.credentialsRef);
    immutableField(errors, FieldPath.root('quotas'), binding.quotas ?? [], old.quotas ?? []);
    immutableField(errors, FieldPath.root('provider'), binding.provider, old.provider);
  }
  errors.push(...validateObjectMeta(binding.metadata, { namespaced: true }));
  const type = binding.provider?.type ?? '';
  if (!type) errors.push(required(FieldPath.root('provider', 'type'), 'must specify a provider type'));
  if (type.split(',').length > 1)
    errors.push(invalid(FieldPath.root('provider', 'type'), type, 'multiple providers specified'));
  errors.push(...validateCredentialsRef(binding.credentialsRef, FieldPath.root('credentialsRef')));
  (binding.quotas ?? []).forEach((quota, i) => {
    if (!quota.name) errors.push(required(FieldPath.root('quotas').index(i).child('name'), 'must provide a name'));
  });
  return errors;
}

const maxExposureClassHandlerLength = 34;

export function validateExposureClass(exposureClass: ExposureClass, old?: ExposureClass): FieldError[] {
  const errors = validateObjectMeta(exposureClass.metadata, { namespaced: false, name: validateDNS1123Label });
  const handler = FieldPath.root('handler');
  errors.push(...validateDNS1123Label(exposureClass.handler, handler));
  if (exposureClass.handler && exposureClass.handler.length > maxExposureClassHandlerLength) {
    errors.push(tooLong(handler, exposureClass.handler, maxExposureClassHandlerLength));
  }
  errors.push(
    ...validateTolerations(exposureClass.scheduling?.tolerations, FieldPath.root('scheduling', 'tolerations')),
  );
  if (old) {
    errors.push(...validateObjectMetaUpdate(exposureClass.metadata, old.metadata));
    immutableField(errors, handler, exposureClass.handler, old.handler);
    immutableField(errors, FieldPath.root('scheduling'), exposureClass.scheduling, old.scheduling);
  }
  return errors;
}
