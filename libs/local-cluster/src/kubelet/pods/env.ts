// A container's environment: envFrom, then env (later wins), values with `$(VAR)` references expanded as Kubernetes
// does: a reference to a variable defined earlier is replaced, `$$` is a literal `$`, anything else stays as written.
import type * as k8s from '@kubernetes/client-node';
import { podFieldValue } from './field-path.js';
import { configMapBytes, keyRef, secretBytes, type ObjectReader } from './object-reader.js';
import { resourceFieldValue } from './resources.js';

export function expandReferences(value: string, lookup: (name: string) => string | undefined): string {
  return value.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (whole, name: string | undefined) => {
    if (name === undefined) return '$';
    return lookup(name) ?? whole;
  });
}

export interface EnvContext {
  pod: k8s.V1Pod;
  container: k8s.V1Container;
  reader: ObjectReader;
  allocatable: Record<string, string>;
}

/** The variables the container declares, resolved; throws with a message naming what is missing. */
export async function containerEnv(
  { pod, container, reader, allocatable }: EnvContext,
  base: Record<string, string> = {},
): Promise<Record<string, string>> {
  const env: Record<string, string> = { ...base };
  for (const source of container.envFrom ?? []) {
    const prefix = source.prefix ?? '';
    if (source.configMapRef) {
      const cm = await reader.configMap(source.configMapRef.name ?? '');
      if (!cm && !source.configMapRef.optional) throw new Error(`configmap "${source.configMapRef.name}" not found`);
      for (const [k, v] of cm ? configMapBytes(cm) : []) env[prefix + k] = v.toString('utf8');
    }
    if (source.secretRef) {
      const secret = await reader.secret(source.secretRef.name ?? '');
      if (!secret && !source.secretRef.optional) throw new Error(`secret "${source.secretRef.name}" not found`);
      for (const [k, v] of secret ? secretBytes(secret) : []) env[prefix + k] = v.toString('utf8');
    }
  }
  for (const variable of container.env ?? []) {
    const value = await envValue(variable, { pod, container, reader, allocatable }, env);
    if (value !== undefined) env[variable.name] = value;
  }
  return env;
}

async function envValue(
  variable: k8s.V1EnvVar,
  { pod, container, reader, allocatable }: EnvContext,
  defined: Record<string, string>,
): Promise<string | undefined> {
  const from = variable.valueFrom;
  if (!from) return expandReferences(variable.value ?? '', (name) => defined[name]);
  if (from.fieldRef) return podFieldValue(pod, from.fieldRef.fieldPath);
  if (from.resourceFieldRef) return resourceFieldValue(pod, from.resourceFieldRef, container.name, allocatable);
  if (from.configMapKeyRef) return (await keyRef('ConfigMap', reader, from.configMapKeyRef))?.toString('utf8');
  if (from.secretKeyRef) return (await keyRef('Secret', reader, from.secretKeyRef))?.toString('utf8');
  throw new Error(`env ${variable.name}: unsupported valueFrom`);
}
