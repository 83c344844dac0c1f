// The admission chain of gardener-apiserver as one function: mutating plugins in order (each sees the object the
// previous one returned), then validating plugins in order; the first denial ends the request. Plugins are plain
// objects of pure functions over the attributes and listers, so the webhook server and a future in-process
// gardener-apiserver run the same chain.
import {
  allow,
  type AdmissionAttributes,
  type AdmissionDecision,
  type KubeObject,
  type Listers,
} from './attributes.js';

/** One admission plugin (k8s.io/apiserver `admission.MutationInterface` / `ValidationInterface`). */
export interface AdmissionPlugin {
  /** Gardener's plugin name (`ShootValidator`, `DeletionConfirmation`, ...). */
  name: string;
  /** Whether the plugin acts on this request at all (kube's `Handles` plus its kind switch). */
  handles(a: AdmissionAttributes): boolean;
  /** Mutating phase: may return a changed object. */
  admit?(a: AdmissionAttributes, listers: Listers): AdmissionDecision | Promise<AdmissionDecision>;
  /** Validating phase: the object is final; allow or deny. */
  validate?(a: AdmissionAttributes, listers: Listers): AdmissionDecision | Promise<AdmissionDecision>;
}

/** The outcome of the chain: denied, or allowed with the final object (when a plugin changed it). */
export type ChainResult =
  | { allowed: true; object?: KubeObject; warnings: string[] }
  | { allowed: false; code: number; reason: string; message: string; plugin: string };

/** Runs the mutating phase: every handling plugin's `admit` in order. */
export async function runMutating(
  plugins: readonly AdmissionPlugin[],
  attributes: AdmissionAttributes,
  listers: Listers,
): Promise<ChainResult> {
  let a = attributes;
  let changed: KubeObject | undefined;
  const warnings: string[] = [];
  for (const plugin of plugins) {
    if (!plugin.admit || !plugin.handles(a)) continue;
    const decision = await plugin.admit(a, listers);
    if (!decision.allowed) return { ...decision, plugin: plugin.name };
    warnings.push(...(decision.warnings ?? []));
    if (decision.object) {
      changed = decision.object;
      a = { ...a, object: decision.object };
    }
  }
  return { allowed: true, ...(changed ? { object: changed } : {}), warnings };
}

/** Runs the validating phase: every handling plugin's `validate` in order; the first denial wins. */
export async function runValidating(
  plugins: readonly AdmissionPlugin[],
  a: AdmissionAttributes,
  listers: Listers,
): Promise<ChainResult> {
  const warnings: string[] = [];
  for (const plugin of plugins) {
    if (!plugin.validate || !plugin.handles(a)) continue;
    const decision = await plugin.validate(a, listers);
    if (!decision.allowed) return { ...decision, plugin: plugin.name };
    warnings.push(...(decision.warnings ?? []));
  }
  return { allowed: true, warnings };
}

/** Both phases, as gardener-apiserver runs them for one request. */
export async function runChain(
  plugins: readonly AdmissionPlugin[],
  a: AdmissionAttributes,
  listers: Listers,
): Promise<ChainResult> {
  const mutating = await runMutating(plugins, a, listers);
  if (!mutating.allowed) return mutating;
  const validating = await runValidating(plugins, mutating.object ? { ...a, object: mutating.object } : a, listers);
  if (!validating.allowed) return validating;
  return { ...mutating, warnings: [...mutating.warnings, ...validating.warnings] };
}

export { allow };
