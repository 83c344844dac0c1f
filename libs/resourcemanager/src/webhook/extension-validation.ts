// The extension-validation webhook: CREATE and UPDATE of extension resources (extensions.gardener.cloud/v1alpha1 and
// druid's Etcd) are refused when required fields are missing or immutable fields change. Covers the essential rules
// of Gardener's extension validation (required spec fields, immutable type/region/..., DNS record types and values).
import { isIP } from 'node:net';
import { IPNet } from '@gardener-ts/api';
import {
  allowed,
  denied,
  type AdmissionRequest,
  type AdmissionResult,
  type KubernetesObject,
} from '@gardener-ts/controller-runtime';

type Spec = Record<string, unknown>;
type Obj = KubernetesObject & { spec?: Spec };

interface Rules {
  required: string[];
  immutable: string[];
  extra?: (spec: Spec, errors: string[]) => void;
}

const get = (spec: Spec, path: string): unknown =>
  path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Spec)[k] : undefined), spec);
const empty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

const dnsRecordTypes = ['A', 'AAAA', 'CNAME', 'TXT'];

function validateDNSRecord(spec: Spec, errors: string[]): void {
  const type = spec.recordType as string | undefined;
  if (type !== undefined && !dnsRecordTypes.includes(type))
    errors.push(`spec.recordType: Unsupported value: "${type}": supported values: "${dnsRecordTypes.join('", "')}"`);
  const values = (spec.values as unknown[] | undefined) ?? [];
  if (type === 'CNAME' && values.length > 1)
    errors.push('spec.values: Invalid value: a CNAME record must have exactly one value');
  values.forEach((v, i) => {
    if (type === 'A' && isIP(String(v)) !== 4)
      errors.push(`spec.values[${i}]: Invalid value: "${String(v)}": must be a valid IPv4 address`);
    if (type === 'AAAA' && isIP(String(v)) !== 6)
      errors.push(`spec.values[${i}]: Invalid value: "${String(v)}": must be a valid IPv6 address`);
  });
}

function validateCIDRs(...paths: string[]) {
  return (spec: Spec, errors: string[]) => {
    for (const path of paths) {
      const v = get(spec, path);
      if (typeof v !== 'string' || v === '') continue;
      if (IPNet.tryParse(v) === undefined) errors.push(`spec.${path}: Invalid value: "${v}": must be a valid CIDR`);
    }
  };
}

function validateWorkerPools(spec: Spec, errors: string[]): void {
  ((spec.pools as Spec[] | undefined) ?? []).forEach((pool, i) => {
    for (const field of ['name', 'machineType'])
      if (empty(pool[field])) errors.push(`spec.pools[${i}].${field}: Required value: field is required`);
    if (typeof pool.minimum === 'number' && typeof pool.maximum === 'number' && pool.maximum < pool.minimum) {
      errors.push(`spec.pools[${i}].maximum: Forbidden: maximum value must not be less than minimum value`);
    }
  });
}

function validatePurpose(spec: Spec, errors: string[]): void {
  if (spec.purpose !== undefined && !['provision', 'reconcile'].includes(spec.purpose as string)) {
    errors.push(
      `spec.purpose: Unsupported value: "${String(spec.purpose)}": supported values: "provision", "reconcile"`,
    );
  }
}

function validateEtcd(spec: Spec, errors: string[]): void {
  if (spec.replicas !== undefined && !(Number.isInteger(spec.replicas) && (spec.replicas as number) >= 0))
    errors.push('spec.replicas: Invalid value: must be a non-negative integer');
}

export const ExtensionRules: Record<string, Rules> = {
  'extensions.gardener.cloud/BackupBucket': {
    required: ['type', 'region', 'secretRef.name'],
    immutable: ['type', 'region'],
  },
  'extensions.gardener.cloud/BackupEntry': {
    required: ['type', 'region', 'bucketName', 'secretRef.name'],
    immutable: ['type', 'region', 'bucketName'],
  },
  'extensions.gardener.cloud/Bastion': { required: ['type', 'userData', 'ingress'], immutable: ['type'] },
  'extensions.gardener.cloud/ContainerRuntime': {
    required: ['type', 'binaryPath', 'workerPool.name'],
    immutable: ['type', 'workerPool.name'],
  },
  'extensions.gardener.cloud/ControlPlane': {
    required: ['type', 'region', 'secretRef.name'],
    immutable: ['type', 'region', 'purpose'],
  },
  'extensions.gardener.cloud/DNSRecord': {
    required: ['type', 'secretRef.name', 'name', 'recordType', 'values'],
    immutable: ['type', 'name', 'recordType'],
    extra: validateDNSRecord,
  },
  'extensions.gardener.cloud/Extension': { required: ['type'], immutable: ['type'] },
  'extensions.gardener.cloud/Infrastructure': {
    required: ['type', 'region', 'secretRef.name'],
    immutable: ['type', 'region'],
  },
  'extensions.gardener.cloud/Network': {
    required: ['type', 'podCIDR', 'serviceCIDR'],
    immutable: ['type', 'podCIDR', 'serviceCIDR'],
    extra: validateCIDRs('podCIDR', 'serviceCIDR'),
  },
  'extensions.gardener.cloud/OperatingSystemConfig': {
    required: ['type', 'purpose'],
    immutable: ['type', 'purpose'],
    extra: validatePurpose,
  },
  'extensions.gardener.cloud/Worker': {
    required: ['type', 'region', 'secretRef.name'],
    immutable: ['type', 'region'],
    extra: validateWorkerPools,
  },
  'druid.gardener.cloud/Etcd': { required: [], immutable: [], extra: validateEtcd },
};

/** The field errors of `obj` (and of the change from `old`), in Gardener's `field: Type: detail` form. */
export function extensionErrors(key: string, obj: Obj, old?: Obj | null): string[] {
  const rules = ExtensionRules[key];
  if (!rules) return [];
  const spec = obj.spec ?? {};
  const errors: string[] = [];
  for (const path of rules.required)
    if (empty(get(spec, path))) errors.push(`spec.${path}: Required value: field is required`);
  rules.extra?.(spec, errors);
  if (old) {
    for (const path of rules.immutable) {
      const before = get(old.spec ?? {}, path);
      if (JSON.stringify(before) !== JSON.stringify(get(spec, path)))
        errors.push(`spec.${path}: Invalid value: field is immutable`);
    }
  }
  return errors;
}

export function extensionValidation(request: AdmissionRequest): AdmissionResult {
  if (request.operation !== 'CREATE' && request.operation !== 'UPDATE')
    return allowed('operation is not CREATE or UPDATE');
  if (!request.object) return allowed('no object in the request');
  const key = `${request.kind.group}/${request.kind.kind}`;
  if (!ExtensionRules[key]) return allowed(`unexpected resource: ${request.kind.kind}.${request.kind.group}`);
  const obj = request.object as Obj;
  const errors = extensionErrors(
    key,
    obj,
    request.operation === 'UPDATE' ? (request.oldObject as Obj | null) : undefined,
  );
  if (errors.length === 0) return allowed();
  return denied(
    `${request.kind.kind}.${request.kind.group} "${obj.metadata?.name ?? request.name ?? ''}" is invalid: ${errors.join(', ')}`,
    { code: 422, reason: 'Invalid' },
  );
}
