// Conversions between the versions of built-in resources kube serves in more than one group-version, as kube's
// conversion functions do through the internal type: core/v1 and events.k8s.io/v1 Events (one resource in storage,
// stored as core/v1), autoscaling/v1 and autoscaling/v2 HorizontalPodAutoscalers (stored as v2). The counterpart of
// the CRD webhook converter for built-ins; synchronous, so watches deliver in order without a queue.
import type { KubeObject } from '../../storage/types.js';
import { hpaV1ToV2, hpaV2ToV1 } from './autoscaling.js';
import { coreToEventsV1, eventsV1ToCore } from './events.js';

type Convert = (object: KubeObject) => KubeObject;

/** `<from apiVersion> <to apiVersion> <kind>` -> conversion. */
const CONVERSIONS = new Map<string, Convert>([
  ['v1 events.k8s.io/v1 Event', coreToEventsV1],
  ['events.k8s.io/v1 v1 Event', eventsV1ToCore],
  ['autoscaling/v1 autoscaling/v2 HorizontalPodAutoscaler', hpaV1ToV2],
  ['autoscaling/v2 autoscaling/v1 HorizontalPodAutoscaler', hpaV2ToV1],
]);

/**
 * A built-in object in `apiVersion`: converted when kube has a conversion between the two versions of its kind,
 * else only relabelled.
 */
export function convertBuiltin(object: KubeObject, apiVersion: string): KubeObject {
  if (object.apiVersion === apiVersion) return object;
  const convert = CONVERSIONS.get(`${object.apiVersion} ${apiVersion} ${object.kind}`);
  return convert ? convert(object) : { ...object, apiVersion };
}
