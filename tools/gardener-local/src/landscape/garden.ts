// The Gardener part of the local landscape (ARCHITECTURE.md "The local landscape, step by step"), brought up on the
// running runtime cluster exactly as on a real one: Gardener's CRDs applied with kubectl, the garden components
// rendered from their Helm charts (deploy/charts/<app>) with the real helm and applied as Pods, the objects Gardener's
// provider-local example shoot needs. Every step is idempotent, so a second `npm start` resumes the same landscape.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { ensureEventsStream } from '@gardener-ts/messaging';
import { Checklist } from './checklist.js';
import { deployGardenlet } from './gardenlet.js';
import {
  kubectlWith,
  helmWith,
  localServiceUrl,
  namespaceManifest,
  waitForEstablishedCRDs,
  waitForPodsStartedAndReady,
} from './kube.js';
import { registerProviderLocal } from './provider-local.js';

export { runTool } from './kube.js';

/** The garden components deployed from their charts, in this order (admission first: it guards the API). */
export const GARDEN_COMPONENTS = ['admission', 'controller-manager', 'scheduler'] as const;

export interface GardenOptions {
  /** The gardener-ts workspace: charts, CRDs, examples and the vendored kubectl/helm. */
  workspace: string;
  /** The landscape's admin kubeconfig. */
  kubeconfig: string;
  /** A directory of the landscape's own for helm's caches and the step logs. */
  stateDir: string;
  checklist: Checklist;
  /** Where a failed step says to look. */
  logFile: string;
  /** The service proxy's table of local ports (services.json). */
  servicesFile: string;
}

export interface Garden {
  /** The landscape's NATS on this machine, e.g. nats://127.0.0.1:43117. */
  natsUrl?: string;
}

/** The landscape's NATS as Pods reach it (its Service in namespace garden, deploy/landscape/nats.yaml). */
const LANDSCAPE_NATS = 'nats://nats.garden.svc:4222';

/** Brings up the garden on the runtime cluster, one checklist step each. */
export async function setUpGarden(options: GardenOptions): Promise<Garden> {
  const garden: Garden = {};
  // A resumed landscape's Deployments still say Available from the last run; only Pods started in this run count.
  const since = Date.now() - 1_000;
  const { workspace, checklist, logFile } = options;
  const kubectl = kubectlWith(workspace, options.kubeconfig);
  const helm = helmWith(workspace, options.stateDir);

  await checklist.step(
    'Gardener API (core, seed management, security, operations, extensions, resources, machine CRDs)',
    async () => {
      const applied = await kubectl([
        'apply',
        '--server-side',
        '--force-conflicts',
        '-f',
        join(workspace, 'libs/api/crds'),
        '-f',
        join(workspace, 'deploy/gardener/crds'),
      ]);
      await waitForEstablishedCRDs(kubectl);
      // gardener-apiserver gives the garden a cluster identity when it starts (shoots' cluster identities derive from
      // it); until our gardener-apiserver exists the landscape does, once: an existing identity is kept. Read first:
      // on a resumed landscape a create would meet Gardener's admission webhooks before their Pod is back.
      const identity = await kubectl([
        'get',
        'configmap',
        'cluster-identity',
        '-n',
        'kube-system',
        '--ignore-not-found',
        '-o',
        'name',
      ]);
      if (!identity.trim()) {
        await kubectl([
          'create',
          'configmap',
          'cluster-identity',
          '-n',
          'kube-system',
          '--from-literal',
          `cluster-identity=${randomUUID()}`,
        ]);
      }
      return `${applied.split('\n').filter(Boolean).length} CRDs established, garden cluster identity`;
    },
    logFile,
  );

  await checklist.step(
    'namespace garden',
    async () => {
      // A resumed landscape's admission webhooks are registered already and intercept the writes below (its own
      // chart's ConfigMap among them): they fail until the admission Pod, restarted by the kubelet, is Ready again.
      const resumed = await kubectl([
        'get',
        'deployment',
        'gardener-admission',
        '-n',
        'garden',
        '--ignore-not-found',
        '-o',
        'name',
      ]);
      if (resumed.trim()) {
        await waitForPodsStartedAndReady(kubectl, 'garden', 'app.kubernetes.io/instance=gardener-admission', since);
      }
      await kubectl(['apply', '-f', '-'], namespaceManifest('garden'));
      return resumed.trim() ? 'admission webhooks served again' : undefined;
    },
    logFile,
  );

  await checklist.step(
    'NATS (events with JetStream history, heartbeats, wake-ups)',
    async () => {
      await kubectl([
        'apply',
        '--server-side',
        '--force-conflicts',
        '-f',
        join(workspace, 'deploy/landscape/nats.yaml'),
      ]);
      await waitForPodsStartedAndReady(kubectl, 'garden', 'app=nats', since);
      garden.natsUrl = await localServiceUrl(options.servicesFile, 'garden', 'nats', 'nats');
      // The events stream that late subscribers (`gardener-local shoot watch`) replay from; publishers only publish.
      const nc = await connectWhenServed(garden.natsUrl);
      try {
        await ensureEventsStream(nc, { maxAgeMs: 24 * 3_600_000, maxBytes: 256 * 1024 * 1024 });
      } finally {
        await nc.close();
      }
      return `${garden.natsUrl}, events stream ready`;
    },
    logFile,
  );

  for (const app of GARDEN_COMPONENTS) {
    const release = `gardener-${app}`;
    await checklist.step(
      `${app} (chart deploy/charts/${app}, image gardener-ts/${app})`,
      async () => {
        const chart = join(workspace, 'deploy/charts', app);
        await helm(['dependency', 'build', chart]);
        const manifests = await helm(['template', release, chart, '--namespace', 'garden']);
        await kubectl(['apply', '--server-side', '--force-conflicts', '-n', 'garden', '-f', '-'], manifests);
        await waitForPodsStartedAndReady(kubectl, 'garden', `app.kubernetes.io/instance=${release}`, since);
        // A component serving webhooks writes its CA into their configurations itself; re-applying the chart on a
        // resumed landscape replaces them, so the webhooks are usable only once every one carries a caBundle again.
        for (const [kind, name] of webhookConfigurations(manifests)) await waitForCABundles(kubectl, kind, name);
        return `deployment ${release} available`;
      },
      logFile,
    );
  }

  await checklist.step(
    'gardenlet for seed local (chart deploy/charts/gardenlet, TLS bootstrap with a bootstrap token)',
    () =>
      deployGardenlet({
        workspace,
        garden: kubectl,
        gardenKubeconfig: options.kubeconfig,
        seed: kubectl,
        helm,
        seedName: 'local',
        stateDir: options.stateDir,
        // The shoot flows' progress goes to the landscape's NATS (what `gardener-local shoot create|watch` shows).
        natsServers: LANDSCAPE_NATS,
        since,
      }),
    logFile,
  );

  await checklist.step(
    'provider-local (ControllerRegistration + ControllerDeployment with the chart inline, installed by the gardenlet)',
    () =>
      registerProviderLocal({
        workspace,
        stateDir: options.stateDir,
        kubectl,
        helm,
        seed: 'local',
        waitForPods: (namespace, selector) => waitForPodsStartedAndReady(kubectl, namespace, selector, since),
      }),
    logFile,
  );

  await checklist.step(
    'projects garden and local (CloudProfile local, Project local, namespace garden-local, credentials, managed issuer, default domain)',
    async () => {
      const examples = join(workspace, 'deploy/gardener/examples/local');
      // Project garden, as gardener-operator creates it in every garden (ManagedSeeds live in its namespace).
      for (const file of ['cloudprofile.yaml', 'project-garden.yaml', 'namespace.yaml', 'project.yaml']) {
        await kubectl(['apply', '--server-side', '--force-conflicts', '-f', join(examples, file)]);
      }
      // Gardener's local setup creates the provider-local credentials Secret beside the example's CredentialsBinding.
      await kubectl(['apply', '-f', '-'], CREDENTIALS_SECRET);
      // The managed service account issuer the example shoot asks for (`authentication.gardener.cloud/issuer:
      // managed`): admission refuses it in a garden without this Secret.
      await kubectl(['apply', '-f', '-'], ISSUER_SECRET);
      // The default domain of the shoots' external DNS names (api.<shoot>.<project>.external.local.gardener.cloud).
      await kubectl(['apply', '-f', '-'], JSON.stringify(DEFAULT_DOMAIN_SECRET));
      await kubectl(['apply', '--server-side', '--force-conflicts', '-f', join(examples, 'credentialsbinding.yaml')]);
      return `example shoot: kubectl apply -f deploy/gardener/examples/local/shoot.yaml`;
    },
    logFile,
  );
  return garden;
}

/**
 * A connection to the landscape's NATS through its Service. The Pod may be Ready a moment before the service proxy
 * forwards to it (its endpoints reach the proxy asynchronously, as with kube-proxy): until then a connection is reset
 * or refused, so connecting is tried again for up to 30 s.
 */
async function connectWhenServed(url: string): Promise<NatsConnection> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      return await connect({ servers: url, timeout: 5_000, name: 'gardener-local-landscape' });
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** The (Mutating|Validating)WebhookConfigurations a rendered chart contains, as [kind, name]. */
export function webhookConfigurations(manifests: string): [string, string][] {
  const found: [string, string][] = [];
  for (const doc of manifests.split(/^---\s*$/m)) {
    const kind = /^kind:\s*((?:Mutating|Validating)WebhookConfiguration)\s*$/m.exec(doc)?.[1];
    const name = /^metadata:\s*\n(?:[ \t]+.*\n)*?[ \t]+name:\s*"?([^"\s]+)"?/m.exec(doc)?.[1];
    if (kind && name) found.push([kind.toLowerCase(), name]);
  }
  return found;
}

async function waitForCABundles(
  kubectl: (args: string[]) => Promise<string>,
  kind: string,
  name: string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const config = JSON.parse(await kubectl(['get', kind, name, '-o', 'json'])) as {
      webhooks?: { clientConfig?: { caBundle?: string } }[];
    };
    if ((config.webhooks ?? []).every((w) => w.clientConfig?.caBundle)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(
    `${kind} ${name}: its webhooks have no caBundle after ${timeoutMs / 1000}s (the component writes it at start)`,
  );
}

const ISSUER_SECRET = JSON.stringify({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: {
    name: 'shoot-service-account-issuer',
    namespace: 'garden',
    labels: { 'gardener.cloud/role': 'shoot-service-account-issuer' },
  },
  type: 'Opaque',
  stringData: { hostname: 'discovery.local.gardener.cloud' },
});

/**
 * The garden's default domain, as Gardener's local setup configures it: admission gives a shoot without
 * `spec.dns.domain` `<shoot>.<project>.external.local.gardener.cloud` when it is bound, and the gardenlet writes its
 * external DNSRecord (type `local`) with it; provider-local resolves `api.<shoot>.<project>.external.local.gardener.cloud`
 * for the substrate's Pods.
 */
export const DEFAULT_DOMAIN_SECRET = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: {
    name: 'default-domain-external-local-gardener-cloud',
    namespace: 'garden',
    labels: { app: 'gardener', 'gardener.cloud/role': 'default-domain' },
    annotations: {
      'dns.gardener.cloud/provider': 'local',
      'dns.gardener.cloud/domain': 'external.local.gardener.cloud',
    },
  },
  type: 'Opaque',
} as const;

const CREDENTIALS_SECRET = JSON.stringify({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'local', namespace: 'garden-local', labels: { 'provider.shoot.gardener.cloud/local': 'true' } },
  type: 'Opaque',
});
