export { EventRecorder, EventKind, type EventRecorderOptions } from './recorder.js';
export { SpamFilter, type SpamFilterOptions } from './spam-filter.js';
export type { CoreEvent, EventType, ObjectReference } from './types.js';
