// Versioned subjects. Every subject is gardener.v1.<family>.<scope>.…: the scope (a seed name, or _garden for
// components acting for the garden) comes right after the family, so one permission `gardener.v1.*.<seed>.>` narrows a
// gardenlet to its seed across events, heartbeats and wake-ups. Underscore-tokens cannot collide with Kubernetes names.
import { filterToken, subjectToken } from './tokens.js';

export const SUBJECT_ROOT = 'gardener.v1';
/** The scope of components that act for the garden rather than a seed (scheduler, controller-manager). */
export const GARDEN_SCOPE = '_garden';
/** The namespace token of cluster-scoped objects. */
export const CLUSTER_SCOPED = '_';

export type SubjectFamily = 'events' | 'heartbeats' | 'wakeups';

export interface ObjectSubject {
  /** The seed the publisher acts for; GARDEN_SCOPE when absent. */
  seed?: string;
  kind: string;
  /** Empty or absent for cluster-scoped objects. */
  namespace?: string;
  name: string;
}

export interface HeartbeatSubject {
  seed?: string;
  component: string;
  identity: string;
}

/** Subscription filters: an absent field matches any value. */
export type ObjectFilter = Partial<ObjectSubject>;
export type HeartbeatFilter = Partial<HeartbeatSubject>;

const scope = (seed: string | undefined) => (seed === undefined ? GARDEN_SCOPE : subjectToken('seed', seed));
const namespace = (ns: string | undefined) => (ns ? subjectToken('namespace', ns) : CLUSTER_SCOPED);

/** gardener.v1.events.<seed>.<kind>.<namespace>.<name> */
export function eventSubject(s: ObjectSubject): string {
  return objectSubject('events', s);
}

/** gardener.v1.wakeups.<seed>.<kind>.<namespace>.<name> */
export function wakeUpSubject(s: ObjectSubject): string {
  return objectSubject('wakeups', s);
}

/** gardener.v1.heartbeats.<seed>.<component>.<identity> */
export function heartbeatSubject(s: HeartbeatSubject): string {
  return [
    SUBJECT_ROOT,
    'heartbeats',
    scope(s.seed),
    subjectToken('component', s.component),
    subjectToken('identity', s.identity),
  ].join('.');
}

function objectSubject(family: SubjectFamily, s: ObjectSubject): string {
  return [
    SUBJECT_ROOT,
    family,
    scope(s.seed),
    subjectToken('kind', s.kind),
    namespace(s.namespace),
    subjectToken('name', s.name),
  ].join('.');
}

export function eventFilter(f: ObjectFilter = {}): string {
  return objectFilter('events', f);
}

export function wakeUpFilter(f: ObjectFilter = {}): string {
  return objectFilter('wakeups', f);
}

export function heartbeatFilter(f: HeartbeatFilter = {}): string {
  return [
    SUBJECT_ROOT,
    'heartbeats',
    filterToken('seed', f.seed),
    filterToken('component', f.component),
    filterToken('identity', f.identity),
  ].join('.');
}

function objectFilter(family: SubjectFamily, f: ObjectFilter): string {
  const ns = f.namespace === '' ? CLUSTER_SCOPED : filterToken('namespace', f.namespace);
  return [
    SUBJECT_ROOT,
    family,
    filterToken('seed', f.seed),
    filterToken('kind', f.kind),
    ns,
    filterToken('name', f.name),
  ].join('.');
}

/** Every subject of one family, e.g. for a JetStream stream: gardener.v1.events.> */
export function familySubjects(family: SubjectFamily): string {
  return `${SUBJECT_ROOT}.${family}.>`;
}
