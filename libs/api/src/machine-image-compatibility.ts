// Whether a CloudProfile machine image version fits a worker pool, as Gardener decides it in the ShootValidator and in
// the shoot maintenance: the pool's kubelet version against the version's `kubeletVersionConstraint` (a
// Masterminds/semver constraint), the pool's CRI and container runtimes against the version's `cri` (a version without
// `cri` offers containerd, the CloudProfile default), the CPU architecture against the version's `architectures` or —
// with `spec.machineCapabilities` (GEP-33) — its `capabilityFlavors`, and the machine type's capabilities against those
// flavors (a capability a machine type or flavor leaves out has all values of its definition; a machine type and an
// image version fit when one flavor shares at least one value of every capability with the machine type). Pure.
import semver from 'semver';
import type { CloudProfileSpec } from './core/v1beta1/cloudprofile.js';

type MachineImageVersion = CloudProfileSpec['machineImages'][number]['versions'][number];
type MachineType = CloudProfileSpec['machineTypes'][number];

/** Capability name → values (a machine type's `capabilities`, one entry of an image version's `capabilityFlavors`). */
export type Capabilities = Readonly<Record<string, readonly string[]>>;
/** One entry of the CloudProfile's `spec.machineCapabilities`. */
export interface CapabilityDefinition {
  name: string;
  values: readonly string[];
}

/** Gardener's capability name of the CPU architecture. */
export const ArchitectureCapability = 'architecture';

/**
 * A Masterminds/semver constraint (Gardener's syntax: `>= 1.26, < 1.30`, `~> 1.27`, `=> 1.26`, `||` alternatives)
 * as an npm semver range; `undefined` when it is not one.
 */
export function kubeletVersionRange(constraint: string): string | undefined {
  const range = constraint.replace(/,/g, ' ').replace(/=>/g, '>=').replace(/=</g, '<=').replace(/~>/g, '~');
  return semver.validRange(range) ?? undefined;
}

/**
 * Whether `version` satisfies a machine image version's `kubeletVersionConstraint`; `undefined` when the version or
 * the constraint cannot be parsed (the validations of the Shoot and the CloudProfile report those).
 */
export function satisfiesKubeletVersionConstraint(version: string, constraint: string): boolean | undefined {
  const range = kubeletVersionRange(constraint);
  const parsed = semver.parse(version, { loose: true });
  if (range === undefined || !parsed) return undefined;
  return semver.satisfies(parsed, range);
}

/** The CRIs a machine image version offers: its `cri`, else containerd (the CloudProfile default). */
export function offeredCRIs(version: Pick<MachineImageVersion, 'cri'>): NonNullable<MachineImageVersion['cri']> {
  return version.cri?.length ? version.cri : [{ name: 'containerd' }];
}

/**
 * Whether the image version offers the pool's CRI (containerd when the pool names none) with every container runtime
 * type the pool asks for.
 */
export function supportsCRI(
  version: Pick<MachineImageVersion, 'cri'>,
  cri: { name: string; containerRuntimes?: readonly { type: string }[] } | undefined,
): boolean {
  const wanted = cri ?? { name: 'containerd' };
  const offered = offeredCRIs(version).find((c) => c.name === wanted.name);
  if (!offered) return false;
  const runtimes = new Set((offered.containerRuntimes ?? []).map((r) => r.type));
  return (wanted.containerRuntimes ?? []).every((r) => runtimes.has(r.type));
}

/**
 * The capabilities with the profile's defaults applied (Gardener's GetCapabilitiesWithAppliedDefaults): every defined
 * capability the set leaves out (or leaves empty) takes all values of its definition.
 */
export function capabilitiesWithDefaults(
  capabilities: Capabilities | undefined,
  definitions: readonly CapabilityDefinition[],
): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const definition of definitions) {
    const own = capabilities?.[definition.name];
    result[definition.name] = [...(own?.length ? own : definition.values)];
  }
  return result;
}

/** Whether two capability sets share at least one value of every defined capability (AreCapabilitiesCompatible). */
export function areCapabilitiesCompatible(
  a: Capabilities | undefined,
  b: Capabilities | undefined,
  definitions: readonly CapabilityDefinition[],
): boolean {
  const left = capabilitiesWithDefaults(a, definitions);
  const right = capabilitiesWithDefaults(b, definitions);
  return definitions.every((d) => left[d.name]!.some((value) => right[d.name]!.includes(value)));
}

/** An image version's flavors with defaults applied; a version without flavors has the one flavor of all defaults. */
export function imageFlavorsWithDefaults(
  flavors: readonly Capabilities[] | undefined,
  definitions: readonly CapabilityDefinition[],
): Record<string, string[]>[] {
  const list = flavors?.length ? flavors : [{}];
  return list.map((flavor) => capabilitiesWithDefaults(flavor, definitions));
}

/** Whether one of the image version's flavors fits the machine type's capabilities. */
export function capabilitiesSupportedByImageFlavors(
  machineCapabilities: Capabilities | undefined,
  flavors: readonly Capabilities[] | undefined,
  definitions: readonly CapabilityDefinition[],
): boolean {
  return imageFlavorsWithDefaults(flavors, definitions).some((flavor) =>
    areCapabilitiesCompatible(machineCapabilities, flavor, definitions),
  );
}

/**
 * The architectures an image version offers: with machine capabilities defined, those of its (defaulted) flavors;
 * without, its `architectures` (CloudProfile defaulting: `[amd64]`).
 */
export function imageVersionArchitectures(
  version: MachineImageVersion,
  definitions: readonly CapabilityDefinition[] | undefined,
): string[] {
  if (!definitions?.length) return version.architectures ?? ['amd64'];
  const architectures = imageFlavorsWithDefaults(version.capabilityFlavors, definitions).flatMap(
    (flavor) => flavor[ArchitectureCapability] ?? [],
  );
  return architectures.length > 0 ? [...new Set(architectures)] : (version.architectures ?? ['amd64']);
}

/**
 * The CPU architecture of a machine type (Gardener's MachineType.GetArchitecture): the `architecture` capability when
 * it names exactly one value, else the type's `architecture` field (CloudProfile defaulting: amd64).
 */
export function machineTypeArchitecture(machineType: Pick<MachineType, 'architecture' | 'capabilities'>): string {
  const fromCapabilities = machineType.capabilities?.[ArchitectureCapability];
  if (fromCapabilities?.length === 1) return fromCapabilities[0]!;
  return machineType.architecture ?? 'amd64';
}
