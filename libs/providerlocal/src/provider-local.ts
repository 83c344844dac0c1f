// gardener-extension-provider-local as a component: a manager on the seed (the kubeconfig of `clientConnection`,
// else $KUBECONFIG, else the Pod's in-cluster service account) with provider-local's controllers and, when the
// extension knows its namespace ($POD_NAMESPACE, set by its chart), the heartbeat Gardener reads and its webhooks
// (webhook/server.ts: the node and control plane webhooks on `server.webhooks`, registered in the seed before the
// controllers start, so the ControlPlane controller deploys the shoots' configuration with the CA). Backup buckets are
// directories below $LOCAL_BACKUPBUCKET_DIR (Gardener's /etc/gardener/local-backupbuckets by default).
//
// With `leaderElection.leaderElect` (the default, as Gardener's extensions run) the replicas campaign for a Lease of
// the extension's namespace: only the leader runs the controllers, the heartbeat, the webhook certificate renewal and
// the start-up Node patches; every replica serves the webhooks and reloads the certificate the leader renews. A leader
// that loses its Lease stops the manager and the process exits 1 (the manager's `ctx.fail`), as controller-runtime's.
import { parseDuration, type ProviderLocalConfiguration } from '@gardener-ts/component-config';
import {
  ApiClient,
  Kinds,
  Manager,
  leaderElectorFromConfig,
  type ComponentContext,
  type LeaderElectionConfiguration,
} from '@gardener-ts/controller-runtime';
import { addHeartbeatController } from '@gardener-ts/extensions';
import { KubeConfig } from '@kubernetes/client-node';
import { addProviderLocalControllers } from './controller/add.js';
import { addWebhookCertificateController } from './webhook/certificate/add.js';
import { addWebhookCertificateReloader } from './webhook/reloader/add.js';
import { ProviderLocalWebhooks } from './webhook/server.js';

/** The extension's name (its heartbeat and field manager). */
export const ExtensionName = 'gardener-extension-provider-local';

/** The seed's kubeconfig, or undefined when the process is pointed at no cluster. */
export function seedKubeConfig(
  config: ProviderLocalConfiguration,
  env: NodeJS.ProcessEnv = process.env,
): KubeConfig | string | undefined {
  if (config.clientConnection?.kubeconfig) return config.clientConnection.kubeconfig;
  if (env.KUBECONFIG) return env.KUBECONFIG;
  if (env.KUBERNETES_SERVICE_HOST) {
    const kc = new KubeConfig();
    kc.loadFromCluster();
    return kc;
  }
  return undefined;
}

/**
 * The leader election the configuration asks for, its Lease's namespace resolved: `resourceNamespace`, else the
 * extension's own namespace. Undefined when `leaderElect` is false. Throws when no namespace is known, as
 * controller-runtime refuses to elect outside a cluster without `--leader-election-namespace`.
 */
export function leaderElectionSettings(
  config: Pick<ProviderLocalConfiguration, 'leaderElection'>,
  extensionNamespace: string | undefined,
): LeaderElectionConfiguration | undefined {
  const le = config.leaderElection;
  if (!le.leaderElect) return undefined;
  const resourceNamespace = le.resourceNamespace || extensionNamespace;
  if (!resourceNamespace)
    throw new Error(
      'leader election needs a namespace for its Lease: set leaderElection.resourceNamespace or $POD_NAMESPACE, ' +
        'or turn it off with leaderElection.leaderElect: false',
    );
  return {
    ...le,
    leaseDuration: le.leaseDuration ?? '15s',
    renewDeadline: le.renewDeadline ?? '10s',
    retryPeriod: le.retryPeriod ?? '2s',
    resourceNamespace,
  };
}

/** How {@link startProviderLocal} is run; every field has the production default. */
export interface StartProviderLocalOptions {
  /** Where $POD_NAMESPACE, $KUBECONFIG and $LOCAL_BACKUPBUCKET_DIR are read (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** The controllers to add (names of `ProviderLocalControllers`; default all). */
  controllers?: string[];
  /** This replica's leader election identity (default the host name and a random UUID). */
  identity?: string;
}

/** Starts provider-local; the returned function stops it. */
export async function startProviderLocal(
  ctx: ComponentContext<ProviderLocalConfiguration>,
  options: StartProviderLocalOptions = {},
): Promise<(() => Promise<void>) | void> {
  const env = options.env ?? process.env;
  const kubeConfig = seedKubeConfig(ctx.config, env);
  if (!kubeConfig) {
    ctx.log.warn('No seed cluster (clientConnection.kubeconfig, $KUBECONFIG or in-cluster): no controllers started');
    return;
  }
  const namespace = env.POD_NAMESPACE || undefined;
  const leaderElection = leaderElectionSettings(ctx.config, namespace);
  // Its own client: the manager closes its clients when it stops, the elector still releases the Lease then.
  const electorClient = leaderElection ? await ApiClient.create(kubeConfig) : undefined;
  const elector =
    leaderElection &&
    leaderElectorFromConfig(leaderElection, {
      client: electorClient!,
      ...(options.identity ? { identity: options.identity } : {}),
      log: ctx.log.child({ component: 'leader-election' }),
      metrics: ctx.metrics,
    });
  let mgr: Manager;
  try {
    mgr = await Manager.forComponent(ctx, {
      clusters: {
        seed: {
          kubeConfig,
          rateLimit: { qps: ctx.config.clientConnection?.qps ?? -1, burst: ctx.config.clientConnection?.burst ?? 0 },
          // The heartbeat watches its Lease: Leases of the extension's namespace only.
          ...(namespace ? { cache: { scopes: [{ kind: Kinds.Lease, scope: { namespace } }] } } : {}),
        },
      },
      ...(elector ? { leaderElection: elector.run } : {}),
    });
  } catch (err) {
    electorClient?.close();
    throw err;
  }
  // Webhooks need the Service of the extension's namespace; outside a cluster (no namespace) there are none.
  const { bindAddress, port } = ctx.config.server.webhooks;
  const webhooks = namespace
    ? new ProviderLocalWebhooks({
        client: mgr.cluster().api,
        namespace,
        port,
        ...(bindAddress ? { host: bindAddress } : {}),
        log: ctx.log.child({ component: 'webhooks' }),
        metrics: ctx.metrics,
        // The leader patches the seed's Nodes (below), once it leads.
        triggerNodesOnStart: false,
      })
    : undefined;
  const stopWebhooks = async () => {
    await webhooks?.stop();
    electorClient?.close();
  };
  try {
    await webhooks?.start();
  } catch (err) {
    await mgr.stop();
    await stopWebhooks();
    throw new Error('starting the webhooks', { cause: err });
  }
  const healthCheckSyncPeriodMs = parseDuration(ctx.config.healthCheckConfig?.syncPeriod ?? '');
  addProviderLocalControllers(mgr, options.controllers, {
    backupBucketDir: env.LOCAL_BACKUPBUCKET_DIR,
    ...(healthCheckSyncPeriodMs ? { healthCheckSyncPeriodMs } : {}),
    ...(webhooks ? { shootWebhookConfiguration: () => webhooks.shootWebhookConfiguration() } : {}),
  });
  if (namespace) addHeartbeatController(mgr, { extensionName: ExtensionName, namespace });
  if (webhooks) {
    addWebhookCertificateController(mgr, { webhooks });
    addWebhookCertificateReloader(mgr, { webhooks });
    // Gardener's start-up trigger of the node webhook: a runnable of the leader.
    mgr.add({ needLeaderElection: true, start: () => webhooks.triggerNodes(), stop: async () => undefined });
  }
  try {
    await mgr.start();
  } catch (err) {
    await mgr.stop();
    await stopWebhooks();
    throw err;
  }
  if (elector && leaderElection)
    ctx.log.info(
      { lease: `${leaderElection.resourceNamespace}/${leaderElection.resourceName}`, identity: elector.identity },
      'Campaigning for leadership; controllers start once elected',
    );
  return async () => {
    await mgr.stop();
    await stopWebhooks();
  };
}
