// Pod label keys of the NetworkPolicy controller (`networking.resources.gardener.cloud/to-<namespace>-<service>-...`)
// whose name part exceeds the 63 characters Kubernetes allows are shortened as Gardener's resource-manager does: the
// first 57 characters, a dash and the first 5 hex digits of the SHA-256 of the full name
// (`to-garden-virtual-garden-kube-apiserver-connection-upgrade-tcp-443` → `…-connection-upgrad-f4133`).
import { createHash } from 'node:crypto';

/** The maximum length of the name part of a label key. */
export const MAX_LABEL_NAME_LENGTH = 63;
const HASH_LENGTH = 5;

/** The name part of a label key, shortened to 63 characters with a hash suffix when it is longer. */
export function shortenLabelName(name: string): string {
  if (name.length <= MAX_LABEL_NAME_LENGTH) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, HASH_LENGTH);
  return `${name.slice(0, MAX_LABEL_NAME_LENGTH - HASH_LENGTH - 1)}-${hash}`;
}

/** A label key (`prefix/name`) whose name part is shortened by `shortenLabelName`; the prefix is kept. */
export function shortenLabelKey(key: string): string {
  const slash = key.lastIndexOf('/');
  return slash < 0 ? shortenLabelName(key) : key.slice(0, slash + 1) + shortenLabelName(key.slice(slash + 1));
}
