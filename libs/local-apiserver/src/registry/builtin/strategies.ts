// What kube does to a built-in object on every write before admission sees it: the conversion of the request body
// into the internal type and the registry strategy's PrepareForCreate/PrepareForUpdate. Today: a Secret's
// `stringData` is merged into `data` (k8s.io/kubernetes/pkg/apis/core/v1 Convert_v1_Secret_To_core_Secret: each
// value base64-encoded, stringData wins over a data key of the same name) and never stored or returned.
import type { KubeObject } from '../../storage/types.js';

type Strategy = (object: KubeObject, old: KubeObject | undefined) => void;

/** Merges `stringData` into `data` (base64 of the UTF-8 bytes; stringData wins) and drops `stringData`. */
export function mergeSecretStringData(secret: KubeObject): void {
  const stringData = secret.stringData;
  if (stringData === undefined) return;
  delete secret.stringData;
  if (stringData === null || typeof stringData !== 'object' || Array.isArray(stringData)) return;
  const entries = Object.entries(stringData as Record<string, unknown>);
  if (entries.length === 0) return;
  const data: Record<string, unknown> = (
    secret.data !== null && typeof secret.data === 'object' && !Array.isArray(secret.data) ? secret.data : {}
  ) as Record<string, unknown>;
  for (const [key, value] of entries) data[key] = Buffer.from(String(value ?? ''), 'utf8').toString('base64');
  secret.data = data;
}

/** Strategies by `group/resource`. */
export const STRATEGIES: Record<string, Strategy> = {
  '/secrets': (o) => mergeSecretStringData(o),
};
