// gardener-extension-provider-local as a component: a manager on the seed (the kubeconfig of `clientConnection`,
// else $KUBECONFIG, else the Pod's in-cluster service account) with provider-local's controllers and, when the
// extension knows its namespace ($POD_NAMESPACE, set by its chart), the heartbeat Gardener reads and its webhooks
// (webhook/server.ts: the node and control plane webhooks, registered in the seed before the controllers start, so
// the ControlPlane controller deploys the shoots' configuration with the CA). Backup buckets are directories below
// $LOCAL_BACKUPBUCKET_DIR (Gardener's /etc/gardener/local-backupbuckets by default).
import { parseDuration, type ProviderLocalConfiguration } from '@gardener-ts/component-config';
import { Kinds, Manager, type ComponentContext } from '@gardener-ts/controller-runtime';
import { addHeartbeatController } from '@gardener-ts/extensions';
import { KubeConfig } from '@kubernetes/client-node';
import { addProviderLocalControllers } from './controller/add.js';
import { addWebhookCertificateController } from './webhook/certificate/add.js';
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

/** Starts provider-local; the returned function stops it. */
export async function startProviderLocal(
  ctx: ComponentContext<ProviderLocalConfiguration>,
): Promise<(() => Promise<void>) | void> {
  const kubeConfig = seedKubeConfig(ctx.config);
  if (!kubeConfig) {
    ctx.log.warn('No seed cluster (clientConnection.kubeconfig, $KUBECONFIG or in-cluster): no controllers started');
    return;
  }
  const namespace = process.env.POD_NAMESPACE;
  const mgr = await Manager.forComponent(ctx, {
    clusters: {
      seed: {
        kubeConfig,
        rateLimit: { qps: ctx.config.clientConnection?.qps ?? -1, burst: ctx.config.clientConnection?.burst ?? 0 },
        // The heartbeat watches its Lease: Leases of the extension's namespace only.
        ...(namespace ? { cache: { scopes: [{ kind: Kinds.Lease, scope: { namespace } }] } } : {}),
      },
    },
  });
  // Webhooks need the Service of the extension's namespace; outside a cluster (no namespace) there are none.
  const webhooks = namespace
    ? new ProviderLocalWebhooks({
        client: mgr.cluster().api,
        namespace,
        log: ctx.log.child({ component: 'webhooks' }),
        metrics: ctx.metrics,
      })
    : undefined;
  try {
    await webhooks?.start();
  } catch (err) {
    await webhooks?.stop();
    throw new Error('starting the webhooks', { cause: err });
  }
  const healthCheckSyncPeriodMs = parseDuration(ctx.config.healthCheckConfig?.syncPeriod ?? '');
  addProviderLocalControllers(mgr, undefined, {
    backupBucketDir: process.env.LOCAL_BACKUPBUCKET_DIR,
    ...(healthCheckSyncPeriodMs ? { healthCheckSyncPeriodMs } : {}),
    ...(webhooks ? { shootWebhookConfiguration: () => webhooks.shootWebhookConfiguration() } : {}),
  });
  if (namespace) addHeartbeatController(mgr, { extensionName: ExtensionName, namespace });
  if (webhooks) addWebhookCertificateController(mgr, { webhooks });
  try {
    await mgr.start();
  } catch (err) {
    await webhooks?.stop();
    throw err;
  }
  return async () => {
    await mgr.stop();
    await webhooks?.stop();
  };
}
