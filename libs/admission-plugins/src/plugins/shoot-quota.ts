// ShootQuotaValidator (gardener-apiserver plugin/pkg/shoot/quotavalidator): the Quotas a Shoot's SecretBinding or
// CredentialsBinding lists (`quotas`) cap what the Shoots counted against them may claim together, and their
// `clusterLifetimeDays` cap how far the Shoot's expiration timestamp may be moved. A Quota counts the Shoots whose
// SecretBinding or CredentialsBinding lists it (Project scope: only bindings of the Shoot's namespace, Secret scope:
// all namespaces). A Shoot claims, per worker pool at its maximum size, the machine type's `cpu`, `gpu` and `memory`
// and its volume size (else the machine type's storage size) under `storage.<class>` (the machine type's storage class,
// else the volume type's), and one load balancer plus one for the nginx-ingress addon. On CREATE the claim is always
// checked; on UPDATE only when a worker pool was added or changed its machine type, maximum or volume, or the
// nginx-ingress addon was enabled — then every metric the Quota limits is checked, and all exceeded ones are named
// (`quota limits exceeded. Unable to allocate further cpu memory `, Gardener's trailing space included). On UPDATE a
// changed `shoot.gardener.cloud/expiration-timestamp` may lie at most the smallest `clusterLifetimeDays` of the
// Quotas from now (`requested shoot expiration time is too long. Can only be extended by 1 day(s)`).
import { Quantity, tryParseQuantity, type corev1beta1, type Shoot } from '@gardener-ts/api';
import { allow, CORE, forbidden, internalError, isKind, type KubeObject, type Listers } from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';
import { cloudProfileSpecFor } from './shoot-validator.js';

type CloudProfileSpec = corev1beta1.CloudProfileSpec;

/** The metrics Gardener's plugin checks, in the order it names exceeded ones. */
export const QUOTA_METRICS = ['cpu', 'gpu', 'memory', 'storage.standard', 'storage.premium', 'loadbalancer'] as const;
export type QuotaMetric = (typeof QUOTA_METRICS)[number];
/** What a Shoot claims against a Quota, per metric. */
export type Claim = Record<QuotaMetric, Quantity>;

/** The annotation carrying a Shoot's expiration time (RFC 3339). */
export const ShootExpirationTimestamp = 'shoot.gardener.cloud/expiration-timestamp';

/** Why a claim cannot be computed; Gardener answers these with an internal error (500). */
export class ClaimError extends Error {}

const zeroClaim = (): Claim => Object.fromEntries(QUOTA_METRICS.map((m) => [m, Quantity.of(0)])) as unknown as Claim;

const quantity = (value: string | number | undefined) =>
  (value === undefined ? undefined : tryParseQuantity(value)) ?? Quantity.of(0);

/** `q × n` for a worker pool's maximum. */
const times = (q: Quantity, n: number) =>
  Quantity.ofMilli(q.milliValue() * BigInt(Math.max(0, Math.trunc(n))), q.format);

const nginxIngressEnabled = (shoot: KubeObject | undefined) => shoot?.spec?.addons?.nginxIngress?.enabled === true;

/**
 * What a Shoot claims (Gardener's getShootResources): per worker pool at its maximum the machine type's cpu, gpu and
 * memory and the volume size under `storage.<class>`; one load balancer, two with the nginx-ingress addon. Throws a
 * ClaimError with Gardener's text for a machine type, volume type or volume class the profile does not have.
 * Deviation: a pool without volume whose machine type has no storage claims no storage (Gardener fails the request).
 */
export function shootClaim(shoot: KubeObject, profile: Pick<CloudProfileSpec, 'machineTypes' | 'volumeTypes'>): Claim {
  const claim = zeroClaim();
  const add = (metric: QuotaMetric, value: Quantity) => (claim[metric] = claim[metric].add(value));
  for (const worker of (shoot.spec?.provider?.workers ?? []) as NonNullable<Shoot['spec']['provider']['workers']>) {
    const machineType = profile.machineTypes.find((t) => t.name === worker.machine?.type);
    if (!machineType) throw new ClaimError(`machineType ${worker.machine?.type ?? ''} not found in CloudProfile`);
    const maximum = worker.maximum ?? 0;
    add('cpu', times(quantity(machineType.cpu), maximum));
    add('gpu', times(quantity(machineType.gpu), maximum));
    add('memory', times(quantity(machineType.memory), maximum));

    // A pool without volume gets the machine type's storage size (Gardener's getShootWorkerResources).
    const storageSize = machineType.storage?.size;
    const volume = worker.volume ?? (storageSize !== undefined ? { size: String(storageSize) } : undefined);
    if (!volume) continue;
    const volumeClass = machineType.storage
      ? (machineType.storage.class ?? '')
      : (profile.volumeTypes ?? []).find((v) => volume.type !== undefined && v.name === volume.type)?.class;
    // Gardener names the machine type here, not the volume type.
    if (volumeClass === undefined) throw new ClaimError(`VolumeType ${machineType.name} not found in CloudProfile`);
    if (volumeClass !== 'standard' && volumeClass !== 'premium')
      throw new ClaimError(`unknown volumeType class ${volumeClass}`);
    add(`storage.${volumeClass}`, times(quantity(volume.size), maximum));
  }
  add('loadbalancer', Quantity.of(nginxIngressEnabled(shoot) ? 2 : 1));
  return claim;
}

type Worker = { name: string; machine?: { type?: string }; maximum?: number; volume?: unknown };

/** Whether an UPDATE must be checked against the quotas (Gardener's quotaVerificationNeeded). */
export function quotaVerificationNeeded(shoot: KubeObject, old: KubeObject): boolean {
  if (!nginxIngressEnabled(old) && nginxIngressEnabled(shoot)) return true;
  const oldWorkers = new Map(((old.spec?.provider?.workers ?? []) as Worker[]).map((w) => [w.name, w]));
  return ((shoot.spec?.provider?.workers ?? []) as Worker[]).some((worker) => {
    const before = oldWorkers.get(worker.name);
    return (
      !before ||
      worker.machine?.type !== before.machine?.type ||
      (worker.maximum ?? 0) !== (before.maximum ?? 0) ||
      JSON.stringify(worker.volume ?? null) !== JSON.stringify(before.volume ?? null)
    );
  });
}

/** Whether an UPDATE changed the expiration timestamp annotation (Gardener's lifetimeVerificationNeeded). */
export function lifetimeVerificationNeeded(shoot: KubeObject, old: KubeObject): boolean {
  return (
    shoot.metadata?.annotations?.[ShootExpirationTimestamp] !== old.metadata?.annotations?.[ShootExpirationTimestamp]
  );
}

/** The exceeded metrics of `quota` for `required` (only the metrics the Quota limits), in Gardener's order. */
export function exceededMetrics(metrics: Record<string, string | number> | undefined, required: Claim): QuotaMetric[] {
  return QUOTA_METRICS.filter((metric) => {
    const limit = metrics?.[metric];
    return limit !== undefined && quantity(limit).cmp(required[metric]) < 0;
  });
}

const notFound = (resource: string, name: string) => `${resource} "${name}" not found`;

async function bindingOf(shoot: KubeObject, namespace: string | undefined, listers: Listers) {
  if (shoot.spec?.secretBindingName) {
    const name: string = shoot.spec.secretBindingName;
    const binding = await listers.get('core.gardener.cloud/v1beta1', 'SecretBinding', name, namespace);
    return binding ? { binding } : { error: notFound('secretbinding.core.gardener.cloud', name) };
  }
  if (shoot.spec?.credentialsBindingName) {
    const name: string = shoot.spec.credentialsBindingName;
    const binding = await listers.get('security.gardener.cloud/v1alpha1', 'CredentialsBinding', name, namespace);
    return binding ? { binding } : { error: notFound('credentialsbinding.security.gardener.cloud', name) };
  }
  return {};
}

type QuotaRef = { name?: string; namespace?: string };

/** A binding's quota references, their namespace defaulted to the binding's (as Gardener's defaulting does). */
const quotaRefsOf = (binding: KubeObject | undefined): QuotaRef[] =>
  ((binding?.quotas ?? []) as QuotaRef[]).map((ref) => ({
    name: ref.name,
    namespace: ref.namespace ?? binding?.metadata?.namespace,
  }));

const refersTo = (quota: KubeObject) => (ref: QuotaRef) =>
  ref.name === quota.metadata?.name && ref.namespace === quota.metadata?.namespace;

/** The other Shoots counted against `quota` (Gardener's findShootsReferQuota). */
async function shootsReferringQuota(
  quota: KubeObject,
  shoot: KubeObject,
  namespace: string | undefined,
  listers: Listers,
): Promise<KubeObject[]> {
  const scope = quota.spec?.scope ?? {};
  let listNamespace: string | undefined;
  if (scope.apiVersion === 'core.gardener.cloud/v1beta1' && scope.kind === 'Project') listNamespace = namespace;
  else if (scope.apiVersion === 'v1' && scope.kind === 'Secret') listNamespace = undefined;
  else throw new ClaimError('unknown quota scope');
  const byNamespace = new Map<string, { secretBindings: Set<string>; credentialsBindings: Set<string> }>();
  const collect = (bindings: KubeObject[], key: 'secretBindings' | 'credentialsBindings') => {
    for (const binding of bindings) {
      if (!quotaRefsOf(binding).some(refersTo(quota))) continue;
      const ns = binding.metadata?.namespace ?? '';
      if (!byNamespace.has(ns)) byNamespace.set(ns, { secretBindings: new Set(), credentialsBindings: new Set() });
      byNamespace.get(ns)![key].add(binding.metadata?.name ?? '');
    }
  };
  collect(await listers.list('core.gardener.cloud/v1beta1', 'SecretBinding', listNamespace), 'secretBindings');
  collect(
    await listers.list('security.gardener.cloud/v1alpha1', 'CredentialsBinding', listNamespace),
    'credentialsBindings',
  );
  const result: KubeObject[] = [];
  for (const [ns, bindings] of byNamespace) {
    for (const other of await listers.list('core.gardener.cloud/v1beta1', 'Shoot', ns)) {
      if (other.metadata?.namespace === namespace && other.metadata?.name === shoot.metadata?.name) continue;
      if (
        bindings.secretBindings.has(other.spec?.secretBindingName ?? '') ||
        bindings.credentialsBindings.has(other.spec?.credentialsBindingName ?? '')
      )
        result.push(other);
    }
  }
  return result;
}

async function claimOf(shoot: KubeObject, namespace: string | undefined, listers: Listers): Promise<Claim> {
  const { spec, error } = await cloudProfileSpecFor(shoot as unknown as Shoot, namespace, listers);
  if (!spec) throw new ClaimError(error!);
  return shootClaim(shoot, spec);
}

/** Go's time.RFC3339 layout (fractional seconds accepted, as time.Parse does). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const sumClaims = (a: Claim, b: Claim): Claim =>
  Object.fromEntries(QUOTA_METRICS.map((m) => [m, a[m].add(b[m])])) as unknown as Claim;

/** The ShootQuotaValidator admission plugin with a clock (tests pass their own). */
export function newShootQuotaValidator(now: () => Date = () => new Date()): AdmissionPlugin {
  return {
    name: 'ShootQuotaValidator',
    handles: (a) =>
      isKind(a, CORE, 'Shoot') &&
      (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
      !a.subresource &&
      Boolean(a.object) &&
      !a.object?.metadata?.deletionTimestamp,
    async validate(a, listers) {
      const shoot = a.object!;
      const old = a.operation === 'UPDATE' ? (a.oldObject ?? undefined) : undefined;
      const checkQuota = !old || quotaVerificationNeeded(shoot, old);
      const checkLifetime = old !== undefined && lifetimeVerificationNeeded(shoot, old);
      try {
        const { binding, error } = await bindingOf(shoot, a.namespace, listers);
        if (error) return internalError(error);
        let maxLifetimeDays: number | undefined;
        for (const ref of quotaRefsOf(binding)) {
          const quota = await listers.get('core.gardener.cloud/v1beta1', 'Quota', ref.name ?? '', ref.namespace);
          if (!quota) return internalError(notFound('quota.core.gardener.cloud', ref.name ?? ''));
          const days = quota.spec?.clusterLifetimeDays;
          if (checkLifetime && typeof days === 'number')
            maxLifetimeDays = maxLifetimeDays === undefined ? days : Math.min(maxLifetimeDays, days);
          if (!checkQuota) continue;
          let allocated = zeroClaim();
          for (const other of await shootsReferringQuota(quota, shoot, a.namespace, listers))
            allocated = sumClaims(allocated, await claimOf(other, other.metadata?.namespace, listers));
          const exceeded = exceededMetrics(
            quota.spec?.metrics,
            sumClaims(allocated, await claimOf(shoot, a.namespace, listers)),
          );
          if (exceeded.length > 0)
            return forbidden(
              a,
              `quota limits exceeded. Unable to allocate further ${exceeded.map((m) => `${m} `).join('')}`,
            );
        }
        const requested = shoot.metadata?.annotations?.[ShootExpirationTimestamp];
        if (checkLifetime && requested !== undefined && maxLifetimeDays !== undefined) {
          const planned = RFC3339.test(requested) ? Date.parse(requested) : NaN;
          // Go's time.Parse error names the layout element it failed at; ours names the layout only.
          if (Number.isNaN(planned))
            return internalError(`parsing time "${requested}" as "2006-01-02T15:04:05Z07:00": cannot parse`);
          if (planned > now().getTime() + maxLifetimeDays * 24 * 3600 * 1000)
            return forbidden(
              a,
              `requested shoot expiration time is too long. Can only be extended by ${maxLifetimeDays} day(s)`,
            );
        }
        return allow();
      } catch (err) {
        if (err instanceof ClaimError) return internalError(err.message);
        throw err;
      }
    },
  };
}

/** The ShootQuotaValidator admission plugin. */
export const ShootQuotaValidator: AdmissionPlugin = newShootQuotaValidator();
