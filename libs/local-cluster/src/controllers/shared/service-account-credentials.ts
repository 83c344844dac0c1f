// kube-controller-manager's --use-service-account-credentials: each controller writes to the API server as its own
// ServiceAccount kube-system/<name>, which kube's bootstrap policy binds to ClusterRole system:controller:<name>; the
// controller manager's own identity (ClusterRole system:kube-controller-manager) only lists and watches, creates those
// ServiceAccounts and requests their tokens (TokenRequest API), renewed at 80 % of their lifetime. Gardener runs a
// shoot's kube-controller-manager this way. Reads of the shared informer cache stay with the manager's identity.
import { KubeConfig, type User } from '@kubernetes/client-node';
import { ApiClient, CachedClient, isAlreadyExists, ServiceAccountKind } from '@gardener-ts/controller-runtime';
import type { Logger } from '@gardener-ts/logging';
import type { ControllerContext } from './context.js';
import { EventRecorder } from './events.js';

/**
 * The ServiceAccount in kube-system each of our controllers acts as (kube's controller names). Controllers kube's
 * controller manager does not have (the scheduler, the kubelet-serving approver) keep the manager's identity.
 */
export const CONTROLLER_SERVICE_ACCOUNTS: Readonly<Record<string, string>> = {
  replicaset: 'replicaset-controller',
  deployment: 'deployment-controller',
  endpoints: 'endpoint-controller',
  endpointslice: 'endpointslice-controller',
  statefulset: 'statefulset-controller',
  daemonset: 'daemon-set-controller',
  cronjob: 'cronjob-controller',
  job: 'job-controller',
  tainteviction: 'node-controller',
  disruption: 'disruption-controller',
  nodelifecycle: 'node-controller',
  podgc: 'pod-garbage-collector',
  csrapproving: 'certificate-controller',
  csrsigning: 'certificate-controller',
  'persistentvolume-binder': 'persistent-volume-binder',
  'pvc-protection': 'pvc-protection-controller',
  'root-ca-cert-publisher': 'root-ca-cert-publisher',
};

/** kube's lifetime of the controllers' tokens. */
export const TOKEN_SECONDS = 3600;

/** When a token issued at `issuedAt` and valid until `expiresAt` (ms since the epoch) is renewed: at 80 %. */
export function renewAt(issuedAt: number, expiresAt: number): number {
  return issuedAt + 0.8 * Math.max(0, expiresAt - issuedAt);
}

interface TokenRequestStatus {
  status?: { token?: string; expirationTimestamp?: string };
}

const PROVIDER = 'gardener-ts-controller-service-account';
const NAMESPACE = 'kube-system';
type Authenticator = Parameters<KubeConfig['addAuthenticator']>[0];

/**
 * Tokens of controller ServiceAccounts, requested by the controller manager and renewed before they expire; the
 * authenticator of the controllers' kubeconfigs.
 */
export class ServiceAccountTokens implements Authenticator {
  private readonly tokens = new Map<string, Promise<{ token: string; renewAt: number }>>();

  constructor(
    private readonly api: Pick<ApiClient, 'transport'>,
    private readonly now: () => number,
  ) {}

  isAuthProvider(user: User): boolean {
    return user.authProvider?.name === PROVIDER;
  }

  async applyAuthentication(user: User, opts: Parameters<Authenticator['applyAuthentication']>[1]): Promise<void> {
    const name = (user.authProvider as { config?: Record<string, string> } | undefined)?.config?.serviceAccount;
    if (!name) return;
    const target = opts as { headers?: Record<string, unknown> };
    target.headers = { ...(target.headers ?? {}), Authorization: `Bearer ${await this.token(name)}` };
  }

  /** The current token of ServiceAccount kube-system/<name>: one request at a time, a new one once due. */
  async token(name: string): Promise<string> {
    const cached = this.tokens.get(name);
    if (cached) {
      const entry = await cached.catch(() => undefined);
      if (entry && this.now() < entry.renewAt) return entry.token;
      if (this.tokens.get(name) !== cached) return this.token(name);
    }
    const request = this.request(name);
    this.tokens.set(name, request);
    try {
      return (await request).token;
    } catch (err) {
      this.tokens.delete(name);
      throw new Error(`requesting a token for ServiceAccount ${NAMESPACE}/${name}`, { cause: err });
    }
  }

  private async request(name: string): Promise<{ token: string; renewAt: number }> {
    const issuedAt = this.now();
    const result = await this.api.transport.request<TokenRequestStatus>({
      method: 'POST',
      path: `/api/v1/namespaces/${NAMESPACE}/serviceaccounts/${encodeURIComponent(name)}/token`,
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { expirationSeconds: TOKEN_SECONDS },
      },
    });
    const token = result.status?.token;
    if (!token) throw new Error('the TokenRequest returned no token');
    const expiresAt = result.status?.expirationTimestamp
      ? Date.parse(result.status.expirationTimestamp)
      : issuedAt + TOKEN_SECONDS * 1000;
    return { token, renewAt: renewAt(issuedAt, expiresAt) };
  }
}

/** Builds each controller's context with a client that acts as the controller's ServiceAccount. */
export class ServiceAccountCredentials {
  private readonly tokens: ServiceAccountTokens;
  private readonly clients = new Map<string, Promise<ApiClient>>();

  /** `api` and `kubeConfig` are the controller manager's own; only the cluster (server, CA) of `kubeConfig` is used. */
  constructor(
    private readonly api: ApiClient,
    private readonly kubeConfig: KubeConfig,
    private readonly log: Logger,
    now: () => number = Date.now,
  ) {
    this.tokens = new ServiceAccountTokens(api, now);
  }

  /** `ctx` with the client, live API and events of the ServiceAccount of controller `name` (unchanged for others). */
  async contextFor(ctx: ControllerContext, name: string): Promise<ControllerContext> {
    const serviceAccount = CONTROLLER_SERVICE_ACCOUNTS[name];
    if (!serviceAccount) return ctx;
    const api = await this.clientFor(serviceAccount);
    const client = new CachedClient(ctx.cache, api);
    const log = ctx.log.child({ serviceAccount: `${NAMESPACE}/${serviceAccount}` });
    return { ...ctx, client, api, log, events: (component) => new EventRecorder(client, component, log) };
  }

  /** Closes the ServiceAccounts' clients. */
  async close(): Promise<void> {
    for (const client of this.clients.values()) (await client.catch(() => undefined))?.close();
  }

  private clientFor(serviceAccount: string): Promise<ApiClient> {
    let client = this.clients.get(serviceAccount);
    if (!client) {
      client = this.createClient(serviceAccount);
      this.clients.set(serviceAccount, client);
    }
    return client;
  }

  private async createClient(serviceAccount: string): Promise<ApiClient> {
    // kube's controller manager creates the ServiceAccounts it needs.
    await this.api
      .create({
        apiVersion: 'v1',
        kind: ServiceAccountKind.kind,
        metadata: { name: serviceAccount, namespace: NAMESPACE },
      })
      .catch((err: unknown) => {
        if (!isAlreadyExists(err))
          throw new Error(`creating ServiceAccount ${NAMESPACE}/${serviceAccount}`, { cause: err });
      });
    const cluster = this.kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error('the controller manager kubeconfig has no current cluster');
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [cluster],
      users: [{ name: serviceAccount, authProvider: { name: PROVIDER, config: { serviceAccount } } }],
      contexts: [{ name: serviceAccount, cluster: cluster.name, user: serviceAccount }],
      currentContext: serviceAccount,
    });
    kc.addAuthenticator(this.tokens);
    this.log.debug({ serviceAccount }, 'Controller acts as its ServiceAccount');
    return ApiClient.create(kc);
  }
}
