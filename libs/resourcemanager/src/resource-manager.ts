// Wires the resource-manager's controllers into a manager: a source cluster (ManagedResources and their Secrets)
// and a target cluster (where the objects go), which may be the same cluster or different ones.
import type { RequestOptions as HttpsRequestOptions } from 'node:https';
import { parseDuration, type ResourceManagerConfiguration } from '@gardener-ts/component-config';
import {
  ApiClient,
  kind,
  leaderElectorFromConfig,
  loadKubeConfig,
  Manager,
  type ComponentContext,
  type ConfigMap,
} from '@gardener-ts/controller-runtime';
import { MessagingClient, Publisher, credentialsOf } from '@gardener-ts/messaging';
import { ClassFilter } from './class-filter.js';
import { addGarbageCollector } from './controller/garbagecollector/add.js';
import { addHealthController } from './controller/health/add.js';
import { addManagedResourceController } from './controller/managedresource/add.js';
import { ManagedResourceKind } from './controller/managedresource/kind.js';
import { addNetworkPolicyController } from './controller/networkpolicy/add.js';
import { addTokenRequestor } from './controller/tokenrequestor/add.js';
import { addTokenInvalidator } from './controller/tokeninvalidator/add.js';
import { addCSRApprover } from './controller/csrapprover/add.js';
import { addNodeCriticalComponents } from './controller/nodecriticalcomponents/add.js';
import { addNodeAgentReconciliationDelay } from './controller/nodeagentreconciliationdelay/add.js';
import type { IngressControllerSelector } from './controller/networkpolicy/types.js';
import type { LabelSelector } from '@gardener-ts/controller-runtime';
import { StatusWriter } from './status.js';
import { TargetObjects } from './target.js';
import type { TransitionSink } from './events/transitions.js';
import { ResourceManagerWebhooks } from './webhook/server.js';

const SOURCE = 'source';
const TARGET = 'target';
const ms = (d: string | undefined, fallback: number) => (d === undefined ? fallback : (parseDuration(d) ?? fallback));

/** The CA bundle (PEM) a kubeconfig trusts for its current cluster (inline data or file, as client-go loads it); '' if none. */
export async function kubeconfigCAData(kubeconfigPath: string): Promise<string> {
  const opts: HttpsRequestOptions = {};
  await loadKubeConfig(kubeconfigPath).applyToHTTPSOptions(opts);
  const ca = opts.ca;
  if (ca === undefined) return '';
  return (Array.isArray(ca) ? ca : [ca]).map((c) => (Buffer.isBuffer(c) ? c.toString('utf8') : String(c))).join('');
}

/** `.controllers.clusterID`: a value, `<cluster>` (must exist), `<default>` (if it exists) or '' (none). */
export async function resolveClusterID(setting: string, client: ApiClient): Promise<string> {
  if (setting !== '<cluster>' && setting !== '<default>') return setting;
  try {
    const cm = await client.get(kind<ConfigMap>('v1', 'ConfigMap'), {
      namespace: 'kube-system',
      name: 'cluster-identity',
    });
    const id = cm.data?.['cluster-identity'];
    if (id) return id;
    if (setting === '<default>') return '';
    throw new Error('config map kube-system/cluster-identity has no key cluster-identity');
  } catch (err) {
    if (setting === '<default>') return '';
    throw new Error(`cannot determine cluster identity: ${(err as Error).message}`);
  }
}

/** The namespaces ManagedResources are watched in: `namespaces` or `namespace`; empty means all. */
function watchedNamespaces(c: ResourceManagerConfiguration['sourceClientConnection']): string[] {
  return [...(c.namespaces ?? []), ...(c.namespace ? [c.namespace] : [])];
}

export interface ResourceManagerOptions {
  /** Publishes condition transitions; overrides the `nats` block of the configuration (for tests). */
  transitions?: TransitionSink;
}

/** Starts every controller of this slice of the resource-manager; the returned function stops them. */
export async function startResourceManager(
  ctx: ComponentContext<ResourceManagerConfiguration>,
  options: ResourceManagerOptions = {},
): Promise<() => Promise<void>> {
  const { config, log } = ctx;
  const sourceKubeconfig = config.sourceClientConnection.kubeconfig;
  const targetKubeconfig = config.targetClientConnection.kubeconfig || sourceKubeconfig;
  const namespaces = watchedNamespaces(config.sourceClientConnection);
  const inScope = (ns: string | undefined) => namespaces.length === 0 || namespaces.includes(ns ?? '');
  const sourceScope = namespaces.length === 1 ? { namespace: namespaces[0] } : undefined;
  // `namespaces` (or the older single `namespace`) of the target connection: the target cache's default namespaces.
  const targetNamespaces = watchedNamespaces(config.targetClientConnection);

  const le = config.leaderElection;
  const leaderElection = {
    ...le,
    leaseDuration: le.leaseDuration ?? '15s',
    renewDeadline: le.renewDeadline ?? '10s',
    retryPeriod: le.retryPeriod ?? '2s',
    resourceNamespace: le.resourceNamespace || (namespaces[0] ?? 'kube-system'),
  };
  const started: { mgr?: Manager } = {};
  const elector = leaderElectorFromConfig(leaderElection, {
    client: await ApiClient.create(sourceKubeconfig),
    log,
    metrics: ctx.metrics,
    onStoppedLeading: ({ lost }) => {
      if (lost) void started.mgr?.stop().then(() => process.exit(1));
    },
  });

  const mgr = await Manager.forComponent(ctx, {
    clusters: {
      [SOURCE]: {
        kubeConfig: sourceKubeconfig,
        rateLimit: { qps: config.sourceClientConnection.qps, burst: config.sourceClientConnection.burst },
        cache: {
          resyncPeriodMs: ms(config.sourceClientConnection.cacheResyncPeriod, 24 * 3600_000),
          scopes: sourceScope
            ? [
                { kind: ManagedResourceKind, scope: sourceScope },
                { kind: kind('v1', 'Secret'), scope: sourceScope },
              ]
            : undefined,
        },
      },
      [TARGET]: {
        kubeConfig: targetKubeconfig,
        rateLimit: { qps: config.targetClientConnection.qps, burst: config.targetClientConnection.burst },
        cache: {
          resyncPeriodMs: ms(config.targetClientConnection.cacheResyncPeriod, 24 * 3600_000),
          // Gardener: `DefaultNamespaces` of the target cache; empty means all namespaces. Namespaced kinds are cached
          // (and readable from the cache) only there, cluster-scoped kinds everywhere.
          defaultNamespaces: targetNamespaces,
          // Gardener keeps Pods cluster-wide for the node-agent authorizer (ByObject Pod: all namespaces).
          scopes:
            targetNamespaces.length > 0 && config.webhooks.nodeAgentAuthorizer.enabled
              ? [{ kind: kind('v1', 'Pod'), scope: {} }]
              : undefined,
        },
      },
    },
    leaderElection: elector?.run,
  });
  started.mgr = mgr;
  const source = mgr.cluster(SOURCE);
  const targetCluster = mgr.cluster(TARGET);

  const clusterID = await resolveClusterID(config.controllers.clusterID, source.api);
  const classFilter = new ClassFilter(config.controllers.resourceClass);

  let messaging: MessagingClient | undefined;
  let sink = options.transitions;
  if (!sink && config.nats) {
    messaging = new MessagingClient({
      servers: config.nats.servers.split(',').map((s) => s.trim()),
      name: 'gardener-resource-manager',
      credentials: credentialsOf(config.nats.credentials),
      logger: log.child({ component: 'nats' }),
      registry: ctx.metrics,
    }).start();
    sink = new Publisher(messaging, { source: 'gardener-resource-manager', seed: config.nats.seed }, { logger: log });
  }
  const status = new StatusWriter(source.client, sink, log);
  const target = new TargetObjects(targetCluster, log.child({ cluster: TARGET }));

  // The ManagedResource, health and garbage-collector controllers (Gardener's pkg/resourcemanager/controller/add.go).
  const mrConfig = config.controllers.managedResource;
  const gcEnabled = config.controllers.garbageCollector.enabled;
  addManagedResourceController(mgr, {
    sourceCluster: SOURCE,
    target,
    classFilter,
    clusterID,
    inScope,
    status,
    managedByLabelValue: mrConfig.managedByLabelValue,
    syncPeriodMs: ms(mrConfig.syncPeriod, 60_000),
    concurrentSyncs: mrConfig.concurrentSyncs,
    alwaysUpdate: mrConfig.alwaysUpdate,
    garbageCollectorActivated: gcEnabled,
  });
  const healthConfig = config.controllers.health;
  addHealthController(mgr, {
    sourceCluster: SOURCE,
    target,
    classFilter,
    clusterID,
    inScope,
    status,
    syncPeriodMs: ms(healthConfig.syncPeriod, 60_000),
    concurrentSyncs: healthConfig.concurrentSyncs,
  });
  if (gcEnabled) {
    const gc = config.controllers.garbageCollector;
    addGarbageCollector(mgr, {
      targetCluster: TARGET,
      minimumObjectLifetimeMs: ms(gc.minimumObjectLifetime, 10 * 60_000),
      syncPeriodMs: ms(gc.syncPeriod, 3600_000),
      log: log.child({ controller: 'garbage-collector' }),
    });
  }

  // NetworkPolicies for the Services of the target cluster.
  const np = config.controllers.networkPolicy;
  if (np.enabled) {
    addNetworkPolicyController(mgr, TARGET, {
      concurrentSyncs: np.concurrentSyncs,
      namespaceSelectors: np.namespaceSelectors as LabelSelector[] | undefined,
      ingressControllerSelector: np.ingressControllerSelector as IngressControllerSelector | undefined,
    });
  }

  // Tokens, kubelet CSRs and node taints.
  const ctl = config.controllers;
  if (ctl.tokenRequestor.enabled) {
    addTokenRequestor(mgr, {
      sourceCluster: SOURCE,
      source,
      target: targetCluster,
      concurrentSyncs: ctl.tokenRequestor.concurrentSyncs,
      class: ctl.tokenRequestor.class,
      // Gardener: the CA data of the target cluster's REST config, for `inject-ca-bundle`.
      caData: await kubeconfigCAData(targetKubeconfig),
    });
  }
  if (ctl.tokenInvalidator.enabled) {
    addTokenInvalidator(mgr, {
      targetCluster: TARGET,
      target: targetCluster,
      concurrentSyncs: ctl.tokenInvalidator.concurrentSyncs,
    });
  }
  if (ctl.csrApprover.enabled) {
    addCSRApprover(mgr, {
      targetCluster: TARGET,
      source,
      target: targetCluster,
      concurrentSyncs: ctl.csrApprover.concurrentSyncs,
      machineNamespace: ctl.csrApprover.machineNamespace,
    });
  }
  if (ctl.nodeCriticalComponents.enabled) {
    const ncc = ctl.nodeCriticalComponents;
    addNodeCriticalComponents(mgr, {
      targetCluster: TARGET,
      target: targetCluster,
      concurrentSyncs: ncc.concurrentSyncs,
      backoffMs: ms(ncc.backoff, 10_000),
      log,
    });
  }
  if (ctl.nodeAgentReconciliationDelay.enabled) {
    const d = ctl.nodeAgentReconciliationDelay;
    addNodeAgentReconciliationDelay(mgr, {
      targetCluster: TARGET,
      target: targetCluster,
      minDelayMs: ms(d.minDelay, 0),
      maxDelayMs: ms(d.maxDelay, 300_000),
    });
  }

  // Webhooks: served on every replica, independent of leadership; a server that cannot start stops the component.
  const webhooks = new ResourceManagerWebhooks({
    config,
    source: source.api,
    target: targetCluster.api,
    namespace: leaderElection.resourceNamespace,
    log,
    metrics: ctx.metrics,
  });
  if (webhooks.enabled) await webhooks.start();

  await mgr.start();
  log.info(
    { clusterID, resourceClass: classFilter.resourceClass, namespaces, targetNamespaces, garbageCollector: gcEnabled },
    'Resource manager started',
  );
  return async () => {
    await webhooks.stop();
    await mgr.stop();
    await messaging?.close();
  };
}
