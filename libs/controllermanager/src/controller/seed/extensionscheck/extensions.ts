// The ExtensionsReady condition of a Seed from the ControllerInstallations of that seed, as Gardener's seed
// extensions check computes it (pkg/controllermanager/controller/seed/extensionscheck): every installation needs
// Valid, Installed and Healthy True and Progressing False; the first failing class, in that order, names the reason.
import { ControllerInstallationConditionType, SeedConditionType, type ControllerInstallation } from '@gardener-ts/api';
import { updatedCondition, type Condition, type WallClock } from '@gardener-ts/controller-runtime';
import { setToProgressingOr } from '../utils.js';

/** The installation conditions the check reads (Gardener's conditionsToCheck). */
export const InstallationConditionTypes = [
  ControllerInstallationConditionType.Valid,
  ControllerInstallationConditionType.Installed,
  ControllerInstallationConditionType.Healthy,
  ControllerInstallationConditionType.Progressing,
] as const;

export const ExtensionsReadyReason = 'AllExtensionsReady';
export const ExtensionsReadyMessage = 'All extensions installed into the seed cluster are ready and healthy.';
export const NotYetInstalledMessage = 'extension was not yet installed';
export const MissingConditionsMessage = 'not all required conditions found in ControllerInstallation';

/** The failing installations of one class: name → the message of its failing condition. */
export type Failures = Map<string, string>;

/** What the installations say about the seed's extensions, before thresholds. */
export type ExtensionsVerdict =
  | { status: 'True'; reason: typeof ExtensionsReadyReason; message: string }
  | { status: 'False'; reason: string; message: string };

/** The failing installations per class. */
export interface ExtensionsFailures {
  notValid: Failures;
  notInstalled: Failures;
  notHealthy: Failures;
  progressing: Failures;
}

/** Sorts the installations into the classes they fail. */
export function classifyInstallations(installations: readonly ControllerInstallation[]): ExtensionsFailures {
  const f: ExtensionsFailures = {
    notValid: new Map(),
    notInstalled: new Map(),
    notHealthy: new Map(),
    progressing: new Map(),
  };
  const required = new Set<string>(InstallationConditionTypes);
  for (const installation of installations) {
    const name = installation.metadata?.name ?? '';
    const conditions = installation.status?.conditions ?? [];
    if (conditions.length === 0) {
      f.notInstalled.set(name, NotYetInstalledMessage);
      continue;
    }
    let found = 0;
    for (const c of conditions) {
      if (!required.has(c.type)) continue;
      const message = c.message ?? '';
      if (c.type === ControllerInstallationConditionType.Valid && c.status !== 'True') f.notValid.set(name, message);
      else if (c.type === ControllerInstallationConditionType.Installed && c.status !== 'True')
        f.notInstalled.set(name, message);
      else if (c.type === ControllerInstallationConditionType.Healthy && c.status !== 'True')
        f.notHealthy.set(name, message);
      else if (c.type === ControllerInstallationConditionType.Progressing && c.status !== 'False')
        f.progressing.set(name, message);
      found++;
    }
    if (!f.notHealthy.has(name) && found !== required.size) f.notHealthy.set(name, MissingConditionsMessage);
  }
  return f;
}

/** Go's `%+v` of a map[string]string: `map[a:x b:y]`, keys sorted. Gardener's messages embed it. */
export function goMapString(entries: Failures): string {
  return `map[${[...entries.keys()]
    .sort()
    .map((k) => `${k}:${entries.get(k)}`)
    .join(' ')}]`;
}

/** The verdict over all installations of a seed; none means ready. */
export function judgeExtensions(installations: readonly ControllerInstallation[]): ExtensionsVerdict {
  const f = classifyInstallations(installations);
  const failing: [Failures, string, string][] = [
    [f.notValid, 'NotAllExtensionsValid', 'Some extensions are not valid'],
    [f.notInstalled, 'NotAllExtensionsInstalled', 'Some extensions are not installed'],
    [f.notHealthy, 'NotAllExtensionsHealthy', 'Some extensions are not healthy'],
    [f.progressing, 'SomeExtensionsProgressing', 'Some extensions are progressing'],
  ];
  for (const [failures, reason, prefix] of failing) {
    if (failures.size > 0) return { status: 'False', reason, message: `${prefix}: ${goMapString(failures)}` };
  }
  return { status: 'True', reason: ExtensionsReadyReason, message: ExtensionsReadyMessage };
}

/**
 * The seed's new ExtensionsReady condition from its current one (or the initialised Unknown one): True when all
 * installations are ready, otherwise Progressing within `thresholdMs` of a True condition, then False.
 */
export function extensionsReadyCondition(
  current: Condition,
  installations: readonly ControllerInstallation[],
  thresholdMs: number,
  clock: WallClock,
): Condition {
  if (current.type !== SeedConditionType.ExtensionsReady) throw new Error(`not an ExtensionsReady condition`);
  const verdict = judgeExtensions(installations);
  return verdict.status === 'True'
    ? updatedCondition(current, 'True', verdict.reason, verdict.message, { clock })
    : setToProgressingOr('False', current, thresholdMs, verdict.reason, verdict.message, clock);
}
