// The preview's request/reply subject, in the garden scope of the gardener.v1 subject scheme.
import { GARDEN_SCOPE, SUBJECT_ROOT } from '@gardener-ts/messaging';

/** gardener.v1.scheduling._garden.preview — request SchedulingPreviewRequest, reply SchedulingPreviewResponse. */
export const PREVIEW_SUBJECT = `${SUBJECT_ROOT}.scheduling.${GARDEN_SCOPE}.preview`;
/** Scheduler replicas answer as one queue group: each request is answered once. */
export const PREVIEW_QUEUE = 'gardener-scheduler';
