// Helpers shared by the webhooks: run a mutation on a copy of the request's object and answer with it (the server
// turns the difference into the JSON patch), or allow without a change.
import {
  allowed,
  denied,
  patched,
  type AdmissionRequest,
  type AdmissionResult,
  type KubernetesObject,
} from '@gardener-ts/controller-runtime';

/**
 * Applies `mutate` to a deep copy of the request's object. `mutate` returns a reason string when it decides to leave
 * the object alone (opt-out, nothing to do), otherwise the changed copy is the answer; when it throws, the request is
 * denied with its message.
 */
export function mutateCopy<T extends KubernetesObject>(
  request: AdmissionRequest,
  mutate: (copy: T) => string | void,
): AdmissionResult {
  if (!request.object) return allowed('no object in the request');
  const copy = structuredClone(request.object) as T;
  let skipped: string | void;
  try {
    skipped = mutate(copy);
  } catch (err) {
    // A value the webhook cannot use (e.g. an unparsable annotation): refuse, telling the user why.
    return denied((err as Error).message);
  }
  if (typeof skipped === 'string') return allowed(skipped);
  return patched(copy);
}

export const labelsOf = (o: KubernetesObject | null | undefined): Record<string, string> => o?.metadata?.labels ?? {};
export const annotationsOf = (o: KubernetesObject | null | undefined): Record<string, string> =>
  o?.metadata?.annotations ?? {};

/** Go's strconv.ParseBool: the values it accepts, else undefined. */
export function parseBool(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  return undefined;
}
