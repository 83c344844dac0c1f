export {
  EventRecorder,
  EventKind,
  EventsV1EventKind,
  eventsV1Body,
  microTime,
  type EventRecorderOptions,
  type EventsApi,
} from './recorder.js';
export { SpamFilter, type SpamFilterOptions } from './spam-filter.js';
export type { CoreEvent, EventSeries, EventsV1Event, EventType, ObjectReference } from './types.js';
