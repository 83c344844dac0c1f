// core/v1 Event <-> events.k8s.io/v1 Event, as kube's pkg/apis/events/v1 conversion (through the internal core Event):
// regarding <-> involvedObject, note <-> message, deprecatedSource <-> source, deprecatedFirstTimestamp <->
// firstTimestamp, deprecatedLastTimestamp <-> lastTimestamp, deprecatedCount <-> count, reportingController <->
// reportingComponent; eventTime, series, action, reason, related, reportingInstance and type keep their names.
// Works on JSON: a field absent on one side is absent on the other (Go would write its zero value).
import type { KubeObject } from '../../storage/types.js';

/** events.k8s.io/v1 field -> core/v1 field; every other top-level field (metadata, eventTime, ...) is the same. */
const RENAMED: ReadonlyArray<readonly [string, string]> = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
  ['reportingController', 'reportingComponent'],
];

function rename(object: KubeObject, apiVersion: string, pairs: ReadonlyArray<readonly [string, string]>): KubeObject {
  const from = new Map(pairs);
  const out: KubeObject = {};
  for (const [key, value] of Object.entries(object)) {
    if (key === 'apiVersion') out.apiVersion = apiVersion;
    else out[from.get(key) ?? key] = value;
  }
  out.apiVersion = apiVersion;
  return out;
}

/** An events.k8s.io/v1 Event as the core/v1 Event it is stored as. */
export function eventsV1ToCore(event: KubeObject): KubeObject {
  return rename(event, 'v1', RENAMED);
}

/** A core/v1 Event as an events.k8s.io/v1 Event. */
export function coreToEventsV1(event: KubeObject): KubeObject {
  return rename(
    event,
    'events.k8s.io/v1',
    RENAMED.map(([v1, core]) => [core, v1] as const),
  );
}
