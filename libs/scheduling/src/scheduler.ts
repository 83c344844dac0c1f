// The gardener-scheduler process behind apps/scheduler: garden client and caches, leader election, the shoot
// scheduler controller, events, and NATS (decisions out, previews answered) when configured.
import { parseDuration, type SchedulerConfiguration } from '@gardener-ts/component-config';
import {
  ApiClient,
  ConfigMapKind,
  EventRecorder,
  Manager,
  leaderElectorFromConfig,
  type ComponentContext,
} from '@gardener-ts/controller-runtime';
import { MessagingClient, Publisher, credentialsOf, type Credentials } from '@gardener-ts/messaging';
import {
  EVENT_COMPONENT,
  GARDEN_NAMESPACE,
  MESSAGING_SOURCE,
  SCHEDULING_PURPOSE_LABEL,
  SCHEDULING_PURPOSE_REGION_CONFIG,
} from './constants.js';
import { addShootScheduler } from './controller/controller.js';
import { previewScheduling } from './preview/preview.js';
import { servePreview } from './preview/responder.js';

export interface StartSchedulerOptions {
  /** Called when leadership is lost (another replica may lead now); the app exits. */
  onLostLeadership?: () => void;
}

const GARDEN = 'garden';

/** The credentials of the scheduler's `nats` settings. */
export const natsCredentials = (nats: NonNullable<SchedulerConfiguration['nats']>): Credentials | undefined =>
  credentialsOf(nats);

/** Starts scheduling; resolves once the caches have synced. The returned function stops everything. */
export async function startScheduler(
  ctx: Pick<ComponentContext<SchedulerConfiguration>, 'config' | 'log' | 'metrics' | 'ready' | 'signal'>,
  options: StartSchedulerOptions = {},
): Promise<() => Promise<void>> {
  const { config, log } = ctx;
  const shootConfig = config.schedulers.shoot;
  const kubeConfig = config.clientConnection.kubeconfig;

  const le = config.leaderElection;
  const leaderElection = {
    ...le,
    leaseDuration: le.leaseDuration ?? '15s',
    renewDeadline: le.renewDeadline ?? '10s',
    retryPeriod: le.retryPeriod ?? '2s',
  };
  const elector = leaderElectorFromConfig(leaderElection, {
    // Its own client: the manager closes its clients when it stops, the elector still releases the Lease then.
    client: await ApiClient.create(kubeConfig),
    log,
    metrics: ctx.metrics,
    onStoppedLeading: ({ lost }) => {
      if (lost) options.onLostLeadership?.();
    },
  });
  const mgr = await Manager.forComponent(ctx, {
    clusters: {
      [GARDEN]: {
        kubeConfig,
        // client-go's client-side throttling, as Gardener's scheduler applies clientConnection.qps/burst.
        rateLimit: { qps: config.clientConnection.qps, burst: config.clientConnection.burst },
        // Only the region configs of all ConfigMaps.
        cache: {
          scopes: [
            {
              kind: ConfigMapKind,
              scope: {
                namespace: GARDEN_NAMESPACE,
                labelSelector: { [SCHEDULING_PURPOSE_LABEL]: SCHEDULING_PURPOSE_REGION_CONFIG },
              },
            },
          ],
        },
      },
    },
    leaderElection: elector?.run,
  });
  const garden = mgr.cluster(GARDEN);

  const messaging = config.nats
    ? new MessagingClient({
        servers: config.nats.servers,
        name: MESSAGING_SOURCE,
        credentials: natsCredentials(config.nats),
        logger: log,
        registry: ctx.metrics,
      }).start()
    : undefined;
  const publisher = messaging ? new Publisher(messaging, { source: MESSAGING_SOURCE }) : undefined;
  const events = new EventRecorder(garden.api, { component: EVENT_COMPONENT, log });

  const scheduler = addShootScheduler(mgr, {
    strategy: shootConfig.candidateDeterminationStrategy,
    concurrentSyncs: shootConfig.concurrentSyncs,
    events,
    decisions: publisher,
    cluster: GARDEN,
    maxRetryDelayMs: parseDuration(shootConfig.retrySyncPeriod ?? '15s'),
  });
  await mgr.start();
  // Answered only from synced caches; every replica answers (from its own cache), leader or not.
  const preview = messaging
    ? servePreview(
        messaging,
        (request) =>
          previewScheduling(request, scheduler.cache, {
            strategy: shootConfig.candidateDeterminationStrategy,
            assumed: scheduler.assumed,
          }),
        { log },
      )
    : undefined;
  log.info(
    { strategy: shootConfig.candidateDeterminationStrategy, nats: !!messaging, leaderElection: !!elector },
    'Shoot scheduler started',
  );

  return async () => {
    preview?.unsubscribe();
    await mgr.stop();
    await events.stop();
    await messaging?.close();
  };
}
