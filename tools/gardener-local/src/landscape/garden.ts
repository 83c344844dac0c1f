// The Gardener part of the local landscape (ARCHITECTURE.md "The local landscape, step by step"), brought up on the
// running runtime cluster exactly as on a real one: Gardener's CRDs applied with kubectl, the garden components
// rendered from their Helm charts (deploy/charts/<app>) with the real helm and applied as Pods, the objects Gardener's
// provider-local example shoot needs. Every step is idempotent, so a second `npm start` resumes the same landscape.
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { ensureEventsStream } from '@gardener-ts/messaging';
import { parse, stringify } from 'yaml';
import { Checklist } from './checklist.js';
import { registerProviderLocal } from './provider-local.js';

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

/** Runs a vendored binary (kubectl, helm); resolves to stdout, rejects with stderr in the message. */
export function runTool(
  binary: string,
  args: string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      binary,
      args,
      { env: options.env ?? process.env, timeout: options.timeoutMs ?? 300_000, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err)
          reject(
            new Error(`${binary.split('/').pop()} ${args.slice(0, 3).join(' ')}: ${(stderr || err.message).trim()}`, {
              cause: err,
            }),
          );
        else resolve(stdout);
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** The landscape's NATS as Pods reach it (its Service in namespace garden, deploy/landscape/nats.yaml). */
const LANDSCAPE_NATS = 'nats://nats.garden.svc:4222';

/** Brings up the garden on the runtime cluster, one checklist step each. */
export async function setUpGarden(options: GardenOptions): Promise<Garden> {
  const garden: Garden = {};
  // A resumed landscape's Deployments still say Available from the last run; only Pods started in this run count.
  const since = Date.now() - 1_000;
  const { workspace, checklist, logFile } = options;
  const kubectlBinary = join(workspace, 'tools/k8s-binaries/vendor/kubectl');
  const helmBinary = join(workspace, 'tools/k8s-binaries/vendor/helm');
  const kubectl = (args: string[], input?: string) =>
    runTool(kubectlBinary, ['--kubeconfig', options.kubeconfig, ...args], { input });
  const helmEnv = {
    ...process.env,
    HELM_CACHE_HOME: join(options.stateDir, 'helm/cache'),
    HELM_CONFIG_HOME: join(options.stateDir, 'helm/config'),
    HELM_DATA_HOME: join(options.stateDir, 'helm/data'),
  };
  const helm = (args: string[]) => runTool(helmBinary, args, { env: helmEnv });

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
      await kubectl(['wait', '--for=condition=Established', 'crd', '--all', '--timeout=120s']);
      // gardener-apiserver gives the garden a cluster identity when it starts (shoots' cluster identities derive from
      // it); until our gardener-apiserver exists the landscape does, once: an existing identity is kept.
      await kubectl([
        'create',
        'configmap',
        'cluster-identity',
        '-n',
        'kube-system',
        '--from-literal',
        `cluster-identity=${randomUUID()}`,
        '--dry-run=client',
        '-o',
        'yaml',
      ])
        .then((cm) => kubectl(['create', '-f', '-'], cm))
        .catch((err: Error) => {
          if (!/AlreadyExists/.test(err.message)) throw err;
        });
      return `${applied.split('\n').filter(Boolean).length} CRDs established, garden cluster identity`;
    },
    logFile,
  );

  await checklist.step(
    'namespace garden',
    async () => void (await kubectl(['apply', '-f', '-'], namespace('garden'))),
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
    async () => {
      // What an operator prepares for a gardenlet's TLS bootstrap, as Gardener's control plane chart does: a bootstrap
      // token, the seed-bootstrapper role for system:bootstrappers, and the seeds' permissions (cluster-admin stands
      // in for Gardener's SeedAuthorizer, which the landscape's API server does not call yet).
      const token = { id: randomBytes(3).toString('hex'), secret: randomBytes(8).toString('hex') };
      await kubectl(['apply', '-f', '-'], gardenletBootstrapManifests(token));
      const admin = parse(await readFile(options.kubeconfig, 'utf8')) as {
        clusters: { cluster: Record<string, unknown> }[];
      };
      const bootstrapKubeconfig = stringify({
        apiVersion: 'v1',
        kind: 'Config',
        'current-context': 'gardenlet-bootstrap',
        clusters: [{ name: 'garden', cluster: admin.clusters[0]!.cluster }],
        contexts: [{ name: 'gardenlet-bootstrap', context: { cluster: 'garden', user: 'gardenlet-bootstrap' } }],
        users: [{ name: 'gardenlet-bootstrap', user: { token: `${token.id}.${token.secret}` } }],
      });
      const kubeconfigFile = join(options.stateDir, 'gardenlet-bootstrap-kubeconfig');
      await writeFile(kubeconfigFile, bootstrapKubeconfig, { mode: 0o600 });
      const chart = join(workspace, 'deploy/charts/gardenlet');
      await helm(['dependency', 'build', chart]);
      // Once bootstrapped, the gardenlet keeps its own kubeconfig Secret; the bootstrap Secret is only for the first time.
      const bootstrapped = await kubectl([
        '-n',
        'garden',
        'get',
        'secret',
        'gardenlet-kubeconfig',
        '--ignore-not-found',
        '-o',
        'name',
      ]);
      const manifests = await helm([
        'template',
        'gardenlet',
        chart,
        '--namespace',
        'garden',
        ...(bootstrapped.trim() ? [] : ['--set-file', `bootstrapKubeconfig.kubeconfig=${kubeconfigFile}`]),
        // The shoot flows' progress goes to the landscape's NATS (what `gardener-local shoot create|watch` shows).
        '--set',
        `config.nats.servers=${LANDSCAPE_NATS}`,
      ]);
      await kubectl(['apply', '--server-side', '--force-conflicts', '-n', 'garden', '-f', '-'], manifests);
      await waitForPodsStartedAndReady(kubectl, 'garden', 'app.kubernetes.io/instance=gardenlet', since);
      await waitForSeedConditions(kubectl, 'local', ['GardenletReady', 'Bootstrapped']);
      return 'Seed local: GardenletReady, Bootstrapped';
    },
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
    'project local (CloudProfile local, Project local, namespace garden-local, credentials)',
    async () => {
      const examples = join(workspace, 'deploy/gardener/examples/local');
      for (const file of ['cloudprofile.yaml', 'namespace.yaml', 'project.yaml']) {
        await kubectl(['apply', '--server-side', '--force-conflicts', '-f', join(examples, file)]);
      }
      // Gardener's local setup creates the provider-local credentials Secret beside the example's CredentialsBinding.
      await kubectl(['apply', '-f', '-'], CREDENTIALS_SECRET);
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

/** The bootstrap token Secret and the roles a gardenlet's TLS bootstrap needs (kubectl apply input). */
function gardenletBootstrapManifests(token: { id: string; secret: string }): string {
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'gardener-system-seed-lease' } },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `bootstrap-token-${token.id}`, namespace: 'kube-system' },
      type: 'bootstrap.kubernetes.io/token',
      stringData: {
        'token-id': token.id,
        'token-secret': token.secret,
        'usage-bootstrap-authentication': 'true',
        expiration: new Date(Date.now() + 24 * 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z'),
      },
    },
    // The backup credentials the seed's `spec.backup` names, as Gardener's local setup creates them (provider-local's
    // buckets are directories of the landscape: no credentials are needed).
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'backup-local', namespace: 'garden' }, type: 'Opaque' },
    // The DNS credentials the seed's `spec.dns.provider` names, as Gardener's local setup creates them.
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'internal-domain-internal-local-gardener-cloud',
        namespace: 'garden',
        labels: { 'gardener.cloud/role': 'internal-domain' },
        annotations: {
          'dns.gardener.cloud/provider': 'local',
          'dns.gardener.cloud/domain': 'internal.local.gardener.cloud',
        },
      },
      type: 'Opaque',
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'gardener.cloud:system:seed-bootstrapper' },
      rules: [
        { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests'], verbs: ['create', 'get'] },
        { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/seedclient'], verbs: ['create'] },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'gardener.cloud:system:seed-bootstrapper' },
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        name: 'gardener.cloud:system:seed-bootstrapper',
      },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:bootstrappers' }],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'gardener.cloud:system:seeds' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'gardener.cloud:system:seeds' }],
    },
  ]
    .map((o) => JSON.stringify(o))
    .join('\n---\n');
}

/** Waits until the Seed's conditions are all True. */
async function waitForSeedConditions(
  kubectl: (args: string[]) => Promise<string>,
  seed: string,
  types: string[],
  timeoutMs = 180_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen = 'no Seed yet';
  while (Date.now() < deadline) {
    const text = await kubectl(['get', 'seed', seed, '--ignore-not-found', '-o', 'json']);
    if (text.trim()) {
      const conditions =
        (JSON.parse(text) as { status?: { conditions?: { type: string; status: string; message?: string }[] } }).status
          ?.conditions ?? [];
      const missing = types.filter((t) => conditions.find((c) => c.type === t)?.status !== 'True');
      if (missing.length === 0) return;
      seen = missing.map((t) => `${t}=${conditions.find((c) => c.type === t)?.status ?? 'absent'}`).join(', ');
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`Seed ${seed} not ready after ${timeoutMs / 1000}s (${seen})`);
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

interface PodList {
  items: {
    metadata: { name: string; deletionTimestamp?: string };
    status?: {
      conditions?: { type: string; status: string }[];
      containerStatuses?: { ready: boolean; state?: { running?: { startedAt?: string } } }[];
    };
  }[];
}

/**
 * Waits until the selected Pods all run containers started after `since` and are Ready: what "the component is up"
 * means when the landscape resumes, where the objects' status may still be the previous run's.
 */
async function waitForPodsStartedAndReady(
  kubectl: (args: string[]) => Promise<string>,
  namespace: string,
  selector: string,
  since: number,
  timeoutMs = 180_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen = 'no pods yet';
  while (Date.now() < deadline) {
    const pods = (
      JSON.parse(await kubectl(['-n', namespace, 'get', 'pods', '-l', selector, '-o', 'json'])) as PodList
    ).items.filter((p) => !p.metadata.deletionTimestamp);
    const ready = pods.filter(
      (p) =>
        p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') &&
        (p.status.containerStatuses ?? []).every(
          (c) => c.ready && Date.parse(c.state?.running?.startedAt ?? '') >= since,
        ),
    );
    if (pods.length > 0 && ready.length === pods.length) return;
    seen = `${ready.length}/${pods.length} pods ready`;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`pods ${selector} in ${namespace} not ready after ${timeoutMs / 1000}s (${seen})`);
}

/** `<scheme>://host:port` of a Service's first port as the service proxy publishes it on this machine. */
async function localServiceUrl(servicesFile: string, namespace: string, name: string, scheme: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const table = JSON.parse(await readFile(servicesFile, 'utf8').catch(() => '{"services":[]}')) as {
      services: { namespace: string; name: string; host: string; ports: { localPort: number }[] }[];
    };
    const entry = table.services.find((s) => s.namespace === namespace && s.name === name);
    if (entry?.ports[0]) return `${scheme}://${entry.host}:${entry.ports[0].localPort}`;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the service proxy publishes no local port for Service ${namespace}/${name} (${servicesFile})`);
}

function namespace(name: string): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}

const CREDENTIALS_SECRET = JSON.stringify({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'local', namespace: 'garden-local', labels: { 'provider.shoot.gardener.cloud/local': 'true' } },
  type: 'Opaque',
});
