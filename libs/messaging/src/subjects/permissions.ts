// NATS permissions of a component, in the shape of a nats-server `permissions` block (or a user JWT's pub/sub lists).
import { GARDEN_SCOPE, SUBJECT_ROOT } from './subjects.js';
import { subjectToken } from './tokens.js';

export interface SubjectPermissions {
  publish: { allow: string[] };
  subscribe: { allow: string[] };
}

/**
 * A gardenlet (or an extension) of one seed: it publishes only for its seed and receives only its seed's wake-ups.
 * `_INBOX.>` lets it receive replies to requests.
 */
export function seedPermissions(seed: string): SubjectPermissions {
  const s = subjectToken('seed', seed);
  return {
    publish: { allow: [`${SUBJECT_ROOT}.*.${s}.>`] },
    subscribe: { allow: [`${SUBJECT_ROOT}.wakeups.${s}.>`, '_INBOX.>'] },
  };
}

/**
 * A garden component (scheduler, controller-manager): publishes in the garden scope, wakes up any seed's components,
 * and answers requests (the scheduler's preview) on their `_INBOX.>` reply subjects.
 */
export function gardenPermissions(): SubjectPermissions {
  return {
    publish: { allow: [`${SUBJECT_ROOT}.*.${GARDEN_SCOPE}.>`, `${SUBJECT_ROOT}.wakeups.*.>`, '_INBOX.>'] },
    subscribe: { allow: [`${SUBJECT_ROOT}.>`, '_INBOX.>'] },
  };
}
