// The shell Gardener's ConfigMap validators share (pkg/webhook/configvalidator): a Shoot that references a ConfigMap
// (audit policy, structured authentication or authorization configuration) may only be created or changed while that
// ConfigMap exists and holds a valid configuration, and a referenced ConfigMap may only be updated to a valid one.
// What "valid" means is the validator's own function; the answers are Gardener's `admission.Errored` (code + message).
import { isDeepStrictEqual } from 'node:util';
import {
  allow,
  CORE,
  isKind,
  type AdmissionAttributes,
  type AdmissionDecision,
  type KubeObject,
  type Listers,
} from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';
import type { ConfigRefusal } from './config-decoding.js';

/** Why a configuration is refused: the HTTP code Gardener answers with (422, 500) and the message. */
export type { ConfigRefusal } from './config-decoding.js';

/** What one ConfigMap validator checks. */
export interface ConfigMapValidatorSpec {
  /** The plugin's name in the chain. */
  name: string;
  /** How messages name the configuration: `audit policy`, `authentication configuration`. */
  purpose: string;
  /** The data key holding it: `policy`, `config.yaml`. */
  dataKey: string;
  /** The ConfigMap a Shoot references (v1beta1 Shoot), or undefined. */
  configMapName(shoot: KubeObject): string | undefined;
  /**
   * On a Shoot update that keeps the reference and the Kubernetes version: whether nothing else the configuration is
   * checked against changed either (Gardener's `SkipValidationOnShootUpdate`; without it the check is skipped).
   */
  skipOnShootUpdate?(shoot: KubeObject, oldShoot: KubeObject): boolean;
  /** Checks the raw configuration against the Shoots that reference it; undefined when it is valid. */
  admitConfig(raw: string, shoots: KubeObject[], listers: Listers): Promise<ConfigRefusal | undefined>;
}

/** kube's answer for controller-runtime's `admission.Errored(code, err)`: the code and the error text, no reason. */
export const errored = (code: number, message: string): AdmissionDecision => ({
  allowed: false,
  code,
  reason: '',
  message,
});

const isShootChange = (a: AdmissionAttributes) =>
  isKind(a, CORE, 'Shoot') && !a.subresource && (a.operation === 'CREATE' || a.operation === 'UPDATE');
const isConfigMapUpdate = (a: AdmissionAttributes) =>
  isKind(a, '', 'ConfigMap') && !a.subresource && a.operation === 'UPDATE';

/** The raw configuration under the data key, or why there is none (Gardener's wording, key and purpose included). */
function rawConfiguration(spec: ConfigMapValidatorSpec, configMap: KubeObject): string | { error: string } {
  const raw = configMap.data?.[spec.dataKey];
  if (typeof raw !== 'string') return { error: `missing ${spec.purpose} key in ${spec.dataKey} ConfigMap data` };
  if (raw.length === 0) return { error: `${spec.purpose} in ${spec.dataKey} key is empty` };
  return raw;
}

async function admitShoot(spec: ConfigMapValidatorSpec, a: AdmissionAttributes, listers: Listers) {
  const shoot = a.object!;
  if (shoot.metadata?.deletionTimestamp) return allow();
  const name = spec.configMapName(shoot);
  if (!name) return allow();
  const old = a.operation === 'UPDATE' ? a.oldObject : undefined;
  if (old) {
    // Labels and annotations can always be changed.
    if (isDeepStrictEqual(old.spec, shoot.spec)) return allow();
    if (
      spec.configMapName(old) === name &&
      old.spec?.kubernetes?.version === shoot.spec?.kubernetes?.version &&
      (!spec.skipOnShootUpdate || spec.skipOnShootUpdate(shoot, old))
    )
      return allow();
  }
  const namespace = shoot.metadata?.namespace ?? a.namespace ?? '';
  const key = `${namespace}/${name}`;
  let configMap: KubeObject | undefined;
  try {
    configMap = await listers.get('v1', 'ConfigMap', name, namespace);
  } catch (err) {
    return errored(500, `could not retrieve ${spec.purpose} ConfigMap ${key}: ${(err as Error).message}`);
  }
  if (!configMap)
    return errored(422, `referenced ${spec.purpose} ConfigMap ${key} does not exist: configmaps "${name}" not found`);
  const raw = rawConfiguration(spec, configMap);
  if (typeof raw !== 'string') return errored(422, `error getting ${spec.purpose} from ConfigMap ${key}: ${raw.error}`);
  const refusal = await spec.admitConfig(raw, [shoot], listers);
  return refusal ? errored(refusal.code, refusal.message) : allow();
}

async function admitConfigMap(spec: ConfigMapValidatorSpec, a: AdmissionAttributes, listers: Listers) {
  const configMap = a.object!;
  const namespace = a.namespace ?? configMap.metadata?.namespace ?? '';
  const name = a.name ?? configMap.metadata?.name ?? '';
  let shoots: KubeObject[];
  try {
    shoots = await listers.list('core.gardener.cloud/v1beta1', 'Shoot', namespace);
  } catch (err) {
    return errored(500, `failed listing shoots in namespace ${namespace}: ${(err as Error).message}`);
  }
  const referencing = shoots.filter((s) => spec.configMapName(s) === name);
  if (referencing.length === 0) return allow();
  const raw = rawConfiguration(spec, configMap);
  if (typeof raw !== 'string')
    return errored(422, `error getting ${spec.purpose} from ConfigMap ${namespace}/${name}: ${raw.error}`);
  if (a.oldObject?.data?.[spec.dataKey] === raw) return allow();
  const refusal = await spec.admitConfig(raw, referencing, listers);
  return refusal ? errored(refusal.code, refusal.message) : allow();
}

/**
 * A validating plugin for Shoot CREATE/UPDATE and ConfigMap UPDATE (the webhook configuration sends the latter only for
 * project namespaces) that keeps the ConfigMaps Shoots reference valid.
 */
export function configMapValidator(spec: ConfigMapValidatorSpec): AdmissionPlugin {
  return {
    name: spec.name,
    handles: (a) => Boolean(a.object) && (isShootChange(a) || isConfigMapUpdate(a)),
    validate: (a, listers) => (isShootChange(a) ? admitShoot(spec, a, listers) : admitConfigMap(spec, a, listers)),
  };
}
