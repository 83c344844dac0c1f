// ShootMutator (gardener-apiserver plugin/pkg/shoot/mutator): the defaults a Shoot gets on CREATE and UPDATE that
// depend on its old version, its Seed or its CloudProfile — the `gardener.cloud/created-by` annotation, the tasks the
// next reconciliation must run (`shoot.gardener.cloud/tasks`: deploy the infrastructure and DNS records on creation,
// wake-up, infrastructure/IP family/SSH access/DNS changes and credentials rotation), the retry annotation of a failed
// Shoot whose spec changed under `confineSpecUpdateRollout`, the pod and service networks from the Seed's
// `spec.networks.shootDefaults`, the Kubernetes versions of worker pools given as `major` or `major.minor`, and on
// UPDATE the machine images of worker pools that leave theirs out.
import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import {
  Annotations,
  compareVersions,
  FieldPath,
  invalid,
  parseIPAddress,
  parseVersion,
  type corev1beta1,
  type FieldError,
  type Shoot,
} from '@gardener-ts/api';
import {
  allow,
  CORE,
  forbiddenFields,
  internalError,
  isKind,
  mutated,
  type KubeObject,
  type Listers,
} from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';
import { cloudProfileSpecFor } from './shoot-validator.js';

type CloudProfileSpec = corev1beta1.CloudProfileSpec;
type ExpirableVersion = corev1beta1.ExpirableVersion;

/** The tasks annotation's task names (v1beta1constants.ShootTask*). */
export const ShootTaskDeployInfrastructure = 'deployInfrastructure';
export const ShootTaskDeployDNSRecordInternal = 'deployDNSRecordInternal';
export const ShootTaskDeployDNSRecordExternal = 'deployDNSRecordExternal';
export const ShootTaskDeployDNSRecordIngress = 'deployDNSRecordIngress';
/** Set on a failed Shoot whose spec changed while its rollout is confined to the maintenance window. */
export const FailedShootNeedsRetryOperation = 'maintenance.shoot.gardener.cloud/needs-retry-operation';

/** `gardener.cloud/operation` values that need the infrastructure deployed again (new SSH key pair). */
const INFRASTRUCTURE_OPERATIONS = new Set([
  'rotate-ssh-keypair',
  'rotate-credentials-start',
  'rotate-credentials-start-without-workers-rollout',
]);

/** Adds `tasks` to the comma-separated `shoot.gardener.cloud/tasks` annotation (controllerutils.AddTasks). */
export function addTasks(annotations: Record<string, string>, ...tasks: string[]): void {
  const current = (annotations[Annotations.ShootTasks] ?? '').split(',').filter(Boolean);
  for (const task of tasks) if (!current.includes(task)) current.push(task);
  annotations[Annotations.ShootTasks] = current.join(',');
}

const deployInfrastructure = (a: Record<string, string>) => addTasks(a, ShootTaskDeployInfrastructure);
const deployDNSRecords = (a: Record<string, string>) =>
  addTasks(a, ShootTaskDeployDNSRecordInternal, ShootTaskDeployDNSRecordExternal, ShootTaskDeployDNSRecordIngress);

const hibernated = (shoot: Shoot | undefined) => shoot?.spec.hibernation?.enabled === true;

/** The operations of the `gardener.cloud/operation` annotation (several are separated by `;`). */
const operationsOf = (annotations: Record<string, string>) =>
  (annotations['gardener.cloud/operation'] ?? '').split(';').map((o) => o.trim());

/** Adds the annotations of Gardener's `addMetadataAnnotations` to `shoot` (changed in place). */
export function addMetadataAnnotations(shoot: Shoot, old: Shoot | undefined): void {
  const annotations = ((shoot.metadata ??= {}).annotations ??= {});
  if (!old) {
    deployInfrastructure(annotations);
    deployDNSRecords(annotations);
    return;
  }
  if (hibernated(old) && !hibernated(shoot)) {
    deployInfrastructure(annotations);
    deployDNSRecords(annotations);
  }
  const oldFamilies = old.spec.networking?.ipFamilies;
  if (
    !isDeepStrictEqual(old.spec.provider.infrastructureConfig, shoot.spec.provider.infrastructureConfig) ||
    (oldFamilies !== undefined && oldFamilies.length < (shoot.spec.networking?.ipFamilies ?? []).length)
  ) {
    deployInfrastructure(annotations);
  }
  const oldSSH = old.spec.provider.workersSettings?.sshAccess;
  if (oldSSH && oldSSH.enabled !== shoot.spec.provider.workersSettings?.sshAccess?.enabled) {
    deployInfrastructure(annotations);
  }
  if (!isDeepStrictEqual(old.spec.dns, shoot.spec.dns)) deployDNSRecords(annotations);
  if (operationsOf(annotations).some((o) => INFRASTRUCTURE_OPERATIONS.has(o))) deployInfrastructure(annotations);
  if (
    shoot.spec.maintenance?.confineSpecUpdateRollout === true &&
    !isDeepStrictEqual(old.spec, shoot.spec) &&
    shoot.status?.lastOperation?.state === 'Failed'
  ) {
    annotations[FailedShootNeedsRetryOperation] = 'true';
  }
}

/** Whether the address of `cidr` is of one of `families` (Gardener's cidrMatchesIPFamily). */
export function cidrMatchesIPFamily(cidr: string, families: readonly string[]): boolean {
  const address = parseIPAddress(cidr.split('/')[0] ?? '');
  return address !== undefined && families.includes(address.family);
}

/** A random /112 IPv6 ULA range for the services of a workerless IPv6 Shoot (`fdxx:xxxx:xxxx::/112`). */
export function generateULAServicesCIDR(random: (n: number) => Uint8Array = randomBytes): string {
  const id = [...random(5)].map((b) => b.toString(16).padStart(2, '0'));
  return `fd${id[0]}:${id[1]}${id[2]}:${id[3]}${id[4]}::/112`;
}

/** Defaults `spec.networking.pods`/`services` from the Seed's shoot defaults of the matching IP family. */
export function defaultShootNetworks(shoot: Shoot, seed: KubeObject | undefined): void {
  if (!seed) return;
  const workerless = (shoot.spec.provider.workers ?? []).length === 0;
  const networking = (shoot.spec.networking ??= {});
  const families = networking.ipFamilies ?? ['IPv4'];
  const defaults: { pods?: string; services?: string } | undefined = seed.spec?.networks?.shootDefaults;
  if (networking.pods === undefined && !workerless && defaults?.pods && cidrMatchesIPFamily(defaults.pods, families))
    networking.pods = defaults.pods;
  if (networking.services === undefined) {
    if (defaults?.services && cidrMatchesIPFamily(defaults.services, families)) networking.services = defaults.services;
    else if (workerless && families.includes('IPv6')) networking.services = generateULAServicesCIDR();
  }
}

/**
 * The classification of a version now (Gardener's CurrentLifecycleClassification): the last started stage of its
 * `lifecycle` (none started yet: unavailable), else its `classification` (default supported); past its
 * `expirationDate` it is expired.
 */
export function currentClassification(v: ExpirableVersion, now = new Date()): string {
  if (v.expirationDate !== undefined && new Date(v.expirationDate) <= now) return 'expired';
  if (v.lifecycle?.length) {
    let current = 'unavailable';
    for (const stage of v.lifecycle)
      if (stage.startTime === undefined || new Date(stage.startTime) <= now) current = stage.classification;
    return current;
  }
  return v.classification ?? 'supported';
}

/** Only `supported` versions are defaults. */
const supported = (v: ExpirableVersion, now: Date) => currentClassification(v, now) === 'supported';

/**
 * The version a `major` or `major.minor` Kubernetes version stands for: the highest supported version of the profile
 * with those parts. A complete version stays; an error names the path when no version fits.
 */
export function defaultKubernetesVersion(
  requested: string,
  versions: readonly ExpirableVersion[],
  path: FieldPath,
  now = new Date(),
): { version?: string; error?: FieldError } {
  const parts = requested.split('.');
  if (parts.length === 3) return {};
  const wanted: number[] = [];
  for (const part of parts.slice(0, 2)) {
    if (part.length === 0) continue;
    if (!/^\d+$/.test(part)) return { error: invalid(path, part, 'must be a semantic version') };
    wanted.push(Number(part));
  }
  let latest: string | undefined;
  for (const candidate of versions) {
    if (!supported(candidate, now)) continue;
    const parsed = parseVersion(candidate.version);
    if (!parsed) continue;
    if (wanted[0] !== undefined && parsed.major !== wanted[0]) continue;
    if (wanted[1] !== undefined && parsed.minor !== wanted[1]) continue;
    if (!latest || compareVersions(parsed, parseVersion(latest)!) > 0) latest = candidate.version;
  }
  if (latest) return { version: latest };
  return {
    error: invalid(
      path,
      requested,
      `couldn't find a suitable version for ${requested}. Suitable versions have a non-expired expiration date and are no 'preview' versions. 'Preview'-classified versions have to be selected explicitly`,
    ),
  };
}

/** Defaults the Kubernetes version of worker pools that set one (`spec.provider.workers[i].kubernetes.version`). */
export function defaultWorkerKubernetesVersions(
  shoot: Shoot,
  profile: CloudProfileSpec,
  now = new Date(),
): FieldError[] {
  const workers = FieldPath.root('spec', 'provider', 'workers');
  for (const [i, worker] of (shoot.spec.provider.workers ?? []).entries()) {
    const requested = worker.kubernetes?.version;
    if (requested === undefined) continue;
    const path = workers.index(i).child('kubernetes', 'version');
    const { version, error } = defaultKubernetesVersion(requested, profile.kubernetes.versions ?? [], path, now);
    // Gardener stops at the first worker pool whose version cannot be defaulted.
    if (error) return [error];
    if (version) worker.kubernetes!.version = version;
  }
  return [];
}

/**
 * Keeps a worker pool's machine image from the stored Shoot when the update leaves it out or names the same image
 * without (or with the same) version (Gardener's ensureMachineImage): images change in the maintenance window, not
 * because a manifest without them was applied again. The remaining defaulting is the profile's.
 */
export function keepMachineImages(shoot: Shoot, old: Shoot | undefined): void {
  if (!old || shoot.metadata?.deletionTimestamp) return;
  const oldWorkers = new Map((old.spec.provider.workers ?? []).map((w) => [w.name, w]));
  for (const worker of shoot.spec.provider.workers ?? []) {
    const oldImage = oldWorkers.get(worker.name)?.machine.image;
    if (!oldImage) continue;
    const image = worker.machine.image;
    if (!image || (image.name === oldImage.name && (!image.version || image.version === oldImage.version)))
      worker.machine.image = structuredClone(oldImage);
  }
}

async function seedOf(shoot: Shoot, listers: Listers) {
  const name = shoot.spec.seedName;
  if (!name) return { seed: undefined };
  const seed = await listers.get('core.gardener.cloud/v1beta1', 'Seed', name);
  if (!seed)
    return {
      error: internalError(`could not find referenced seed "${name}": seed.core.gardener.cloud "${name}" not found`),
    };
  return { seed };
}

/** The ShootMutator admission plugin. */
export const ShootMutator: AdmissionPlugin = {
  name: 'ShootMutator',
  handles: (a) =>
    isKind(a, CORE, 'Shoot') &&
    (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
    !a.subresource &&
    Boolean(a.object),
  async admit(a, listers) {
    const input = a.object as unknown as Shoot;
    if (!input.spec?.kubernetes || !input.spec.provider) return allow(); // the schema validation reports it
    const shoot = structuredClone(input);
    shoot.metadata ??= {};
    const old = a.operation === 'UPDATE' ? (a.oldObject as unknown as Shoot | undefined) : undefined;
    const deleting = Boolean(shoot.metadata.deletionTimestamp);

    // A Shoot being deleted keeps what it has: its profile may be gone already (Gardener would answer 500).
    let profile: CloudProfileSpec | undefined;
    if (!deleting) {
      const found = await cloudProfileSpecFor(shoot, a.namespace, listers);
      if (!found.spec) return internalError(found.error!);
      profile = found.spec;
    }
    const { seed, error } = await seedOf(shoot, listers);
    if (error) return error;

    if (a.operation === 'CREATE')
      (shoot.metadata.annotations ??= {})[Annotations.GardenerCreatedBy] = a.userInfo.username ?? '';
    addMetadataAnnotations(shoot, old);
    defaultShootNetworks(shoot, seed);
    keepMachineImages(shoot, old);
    const errors = profile ? defaultWorkerKubernetesVersions(shoot, profile) : [];
    if (errors.length > 0) return forbiddenFields(a, errors);

    return isDeepStrictEqual(shoot, input) ? allow() : mutated(shoot as unknown as KubeObject);
  },
};
