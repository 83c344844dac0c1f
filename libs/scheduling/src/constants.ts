// Gardener's names the scheduler reads and writes.

/** spec.schedulerName of shoots this scheduler handles (an unset name means it too). */
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';
/** Namespace of the region-config ConfigMaps (and of the leader election Lease). */
export const GARDEN_NAMESPACE = 'garden';
export const SCHEDULING_PURPOSE_LABEL = 'scheduling.gardener.cloud/purpose';
export const SCHEDULING_PURPOSE_REGION_CONFIG = 'region-config';
export const SCHEDULING_CLOUDPROFILES_ANNOTATION = 'scheduling.gardener.cloud/cloudprofiles';
/**
 * Gardener's emergency brake on a Seed: with value "true", shoots on the seed are not reconciled and the scheduler
 * assigns no new shoots to it (Gardener v1.126, `v1beta1constants.AnnotationEmergencyStopShootReconciliations`).
 */
export const EMERGENCY_STOP_SHOOT_RECONCILIATIONS_ANNOTATION = 'shoot.gardener.cloud/emergency-stop-reconciliations';

/** Event reasons on the Shoot. */
export const EVENT_SCHEDULING_SUCCESSFUL = 'SchedulingSuccessful';
export const EVENT_SCHEDULING_FAILED = 'SchedulingFailed';
/** Source component of the events (Gardener records them as the "shoot-scheduler"). */
export const EVENT_COMPONENT = 'shoot-scheduler';
/** The publisher identity on NATS. */
export const MESSAGING_SOURCE = 'gardener-scheduler';
