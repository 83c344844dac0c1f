// events.k8s.io/v1: Event (see notation.ts; core/v1 Event is in core.ts). Field numbers: k8s.io/api events/v1
// generated.proto. eventTime and lastObservedTime are metav1.MicroTime (RFC 3339 with microseconds in JSON).
import type { MessageTable } from './notation.js';
import { CORE, EVENTS, META } from './notation.js';

export const EVENTS_MESSAGES: MessageTable = {
  [`${EVENTS}.Event`]: [
    `metadata 1 ${META}.ObjectMeta`,
    `eventTime 2 ${META}.MicroTime`,
    'series 3 EventSeries',
    'reportingController 4 string',
    'reportingInstance 5 string',
    'action 6 string',
    'reason 7 string',
    `regarding 8 ${CORE}.ObjectReference`,
    `related 9 ${CORE}.ObjectReference`,
    'note 10 string',
    'type 11 string',
    `deprecatedSource 12 ${CORE}.EventSource`,
    `deprecatedFirstTimestamp 13 ${META}.Time`,
    `deprecatedLastTimestamp 14 ${META}.Time`,
    'deprecatedCount 15 int32',
  ],
  [`${EVENTS}.EventSeries`]: ['count 1 *int32', `lastObservedTime 2 ${META}.MicroTime`],
};
