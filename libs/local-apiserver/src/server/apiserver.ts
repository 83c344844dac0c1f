// The local API server: storage, registry, object service, built-in controllers and the HTTPS endpoint.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Registry as MetricsRegistry, collectDefaultMetrics } from 'prom-client';
import { createLogger, type Logger } from '@gardener-ts/logging';
import { Registry } from '../registry/registry.js';
import { builtinResources } from '../registry/builtin/index.js';
import { createStorage, encryptionTransformer, type EtcdTLSOptions, type ValueTransformer } from '../storage/index.js';
import { DirectoryLock } from '../storage/dir-lock.js';
import type { Storage } from '../storage/types.js';
import {
  clientCertificateAuthenticator,
  parseTokenFile,
  staticTokenAuthenticator,
  type Authenticator,
} from '../http/authn.js';
import { createHandler, createUpgradeHandler, type HandlerDeps } from '../http/handler.js';
import { KubeletLocator, podLogHandler, podStreamUpgradeHandler, upgradeRequired } from './kubelet-proxy.js';
import { generateCredentials, loadOrCreateCredentials, writeSecret, type ClusterCredentials } from '../pki/data-dir.js';
import { kubeconfig } from '../pki/kubeconfig.js';
import type { KeyPair } from '../pki/certs.js';
import { CRDController } from '../controllers/crd-controller.js';
import { GarbageCollector } from '../controllers/garbage-collector.js';
import { NamespaceController } from '../controllers/namespace-controller.js';
import { CSRSigner } from '../controllers/csr-signer.js';
import { internalContext } from './context.js';
import { ObjectService } from './objects.js';
import { createSchemas } from './schemas.js';
import { createFieldOwnership } from './field-ownership.js';
import { defaultPipeline } from './default-pipeline.js';
import { ipAt, serviceAllocation } from './service-allocation.js';
import { recordCSRRequester } from '../auth/csr-requester.js';
import { WebhookAdmission } from '../admission/webhooks.js';
import { serviceAccountAdmission } from '../admission/service-account.js';
import { resourceQuotaAdmission } from '../admission/resource-quota.js';
import { ResourceQuotaController } from '../admission/resource-quota-controller.js';
import { nodeRestrictedEviction, nodeRestriction, nodeTokenRequestAdmission } from '../admission/node-restriction.js';
import { NodeAuthorizer } from '../auth/node-authorizer.js';
import { NodeGraph } from '../auth/node-graph.js';
import { NamespaceDefaultsController } from '../controllers/namespace-defaults.js';
import { ApiError } from '../api/errors.js';
import { AuthorizerChain, superuserAuthorizer } from '../auth/authorizer.js';
import { RbacAuthorizer } from '../auth/rbac.js';
import {
  bootstrapClusterRoleBindings,
  bootstrapClusterRoles,
  bootstrapRoleBindings,
  bootstrapRoles,
} from '../auth/bootstrap-policy.js';
import { reconcileBinding, reconcileRole } from '../auth/policy-reconciliation.js';
import { ClusterRoleAggregationController } from '../controllers/clusterrole-aggregation.js';
import { webhookAuthorizer, type AuthorizationWebhookOptions } from '../auth/webhook-authorizer.js';
import { reviewHandlers } from '../auth/reviews.js';
import { ServiceAccountTokens } from '../auth/service-account-tokens.js';
import { bootstrapTokenAuthenticator } from '../auth/bootstrap-tokens.js';
import { tokenRequestHandler } from '../auth/token-request.js';
import { podBindingHandler, podEvictionHandler } from './pod-subresources.js';
import { createAuditor, type Auditor, type AuditOptions } from '../audit/index.js';

export type StorageKind = 'memory' | 'file' | 'etcd';
export type { EtcdTLSOptions };

export interface LocalApiServerOptions {
  /** Where the CA, credentials, kubeconfig and (file storage) data live. Without it: in memory only. */
  dataDir?: string;
  /**
   * The address to listen on (kube's --bind-address; default 127.0.0.1). A wildcard (`0.0.0.0`, `::`) listens on all
   * interfaces, which a local Pod's network preload turns into the Pod's own address.
   */
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /**
   * kube's --advertise-address: the address in the `default/kubernetes` Endpoints. Default: the address listened on
   * (127.0.0.1 when that is a wildcard).
   */
  advertiseAddress?: string;
  storage?: StorageKind;
  etcdServers?: string[];
  /** kube's --etcd-cafile, --etcd-certfile and --etcd-keyfile (PEM): TLS to etcd, with a client certificate. */
  etcdTLS?: EtcdTLSOptions;
  /**
   * kube's --encryption-provider-config: the EncryptionConfiguration (YAML text) whose providers (aescbc, aesgcm,
   * identity) encrypt the named resources in etcd. etcd storage only.
   */
  encryptionConfig?: string;
  /**
   * kube's --tls-cert-file and --tls-private-key-file (PEM): serve with this certificate instead of the one generated
   * from the data dir's CA. Without the matching CA in `clientCA`, the written admin kubeconfig would not work: it is
   * then not written (see {@link LocalApiServer.kubeconfig}).
   */
  servingCertificate?: KeyPair;
  /**
   * kube's --client-ca-file (PEM, one or more CAs): client certificates are verified against these CAs only (CN the
   * user, O the groups), instead of the data dir's CA. The in-process CSR signer then does not run: the cluster's
   * controller manager signs approved CSRs with its --cluster-signing-* CAs, as in kube.
   */
  clientCA?: string;
  /** kube's --service-account-signing-key-file, --service-account-key-file and --service-account-issuer. */
  serviceAccount?: ServiceAccountOptions;
  /** How many past events memory and file storage keep for watches from an older resourceVersion. */
  watchHistory?: number;
  /** Serve unauthenticated requests as system:anonymous. */
  anonymous?: boolean;
  /** A static token file (`token,user,uid,"group1,group2"` per line). */
  tokenFile?: string;
  /**
   * kube-apiserver's `--authorization-mode=Node,RBAC` and `--enable-admission-plugins=NodeRestriction`: kubelets
   * (system:node:<name> in system:nodes) get the Node authorizer's permissions, limited by NodeRestriction. Default
   * true; false leaves nodes to RBAC alone (`--authorization-mode=RBAC`, NodeRestriction disabled).
   */
  nodeAuthorization?: boolean;
  /** An authorization webhook asked after RBAC (e.g. Gardener's SeedAuthorizer). */
  authorizationWebhook?: AuthorizationWebhookOptions;
  /**
   * kube's --kubelet-certificate-authority: kubelets' serving certificates must be signed by this CA (PEM) and name the
   * node's address, or logs/exec/attach/port-forward fail. `true`: this server's own cluster CA, the one its CSR signer
   * issues kubelet-serving certificates from. Unset: kubelet certificates are not verified (kube's default).
   */
  kubeletCertificateAuthority?: string | true;
  /**
   * kube's --kubelet-client-certificate/--kubelet-client-key: the client certificate the server presents to kubelets
   * (logs, exec, attach, port-forward). Unset: its own admin certificate, which only kubelets trusting its CA accept.
   */
  kubeletClientCertificate?: KeyPair;
  /** Audit logging (kube's --audit-policy-file, --audit-log-path, --audit-webhook-config-file). */
  audit?: AuditOptions;
  logger?: Logger;
}

/** How ServiceAccount tokens are signed and verified. */
export interface ServiceAccountOptions {
  /** The private key (PEM; RSA or ECDSA P-256) TokenRequests are signed with. Default: the data dir's key. */
  signingKeyPem?: string;
  /** PEM public or private keys tokens are verified with. Default: the signing key. */
  verificationKeysPem?: string;
  /** The `iss` of tokens (default https://kubernetes.default.svc.cluster.local); also the API audience. */
  issuer?: string;
  /** Further issuers whose tokens are accepted (kube's repeated --service-account-issuer). */
  acceptedIssuers?: string[];
  /** kube's --api-audiences (default: the issuer). */
  apiAudiences?: string[];
}

export const KUBERNETES_VERSION = { major: '1', minor: '35', gitVersion: 'v1.35.0-gardener-ts' };

const DEFAULT_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export class LocalApiServer {
  private constructor(
    readonly url: string,
    readonly port: number,
    /**
     * An admin kubeconfig (client certificate in group system:masters), or '' when the server serves with a given
     * certificate or client CA (the data dir's admin certificate and CA are then not what it trusts and serves).
     */
    readonly kubeconfig: string,
    readonly credentials: ClusterCredentials,
    readonly registry: Registry,
    readonly objects: ObjectService,
    readonly storage: Storage,
    private readonly server: Server,
    private readonly controllers: { stop(): void }[],
    private readonly auditor: Auditor,
    private readonly dataDirLock: DirectoryLock | undefined,
    readonly kubeconfigPath?: string,
  ) {}

  /**
   * Starts a server. With a data dir, the whole directory is locked first (one server per data dir, whatever the
   * storage kind: its kubeconfig and credentials are this server's). A failed start undoes what it opened, so the
   * locks and the store are free again.
   */
  static async start(options: LocalApiServerOptions = {}): Promise<LocalApiServer> {
    const log = options.logger ?? createLogger({ name: 'local-apiserver', level: 'error' });
    let lock: DirectoryLock | undefined;
    if (options.dataDir) {
      await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
      // The user's alone, as etcd keeps its data dir: the store, the keys and the kubeconfig live here. An existing
      // data dir with a wider mode is tightened at start.
      await chmod(options.dataDir, 0o700);
      lock = await DirectoryLock.acquire(options.dataDir, 'data directory');
    }
    const undo: (() => unknown)[] = [() => lock?.release()];
    try {
      return await LocalApiServer.startLocked(options, log, lock, undo);
    } catch (err) {
      for (const step of undo.reverse()) {
        try {
          await step();
        } catch (cleanupErr) {
          log.debug({ err: cleanupErr }, 'Cleaning up after a failed start');
        }
      }
      throw err;
    }
  }

  private static async startLocked(
    options: LocalApiServerOptions,
    log: Logger,
    lock: DirectoryLock | undefined,
    undo: (() => unknown)[],
  ): Promise<LocalApiServer> {
    const metrics = new MetricsRegistry();
    collectDefaultMetrics({ register: metrics });
    // Before the store, so an invalid audit policy or an unusable backend stops the start before the data is opened.
    const auditor = await createAuditor(options.audit, { metrics, log });
    undo.push(() => auditor.stop());
    const credentials = options.dataDir ? await loadOrCreateCredentials(options.dataDir) : await generateCredentials();
    const kind = options.storage ?? (options.dataDir ? 'file' : 'memory');
    if (options.encryptionConfig !== undefined && kind !== 'etcd')
      throw new Error(`encryption at rest needs etcd storage, not ${kind}`);
    let transformer: ValueTransformer | undefined;
    try {
      transformer =
        options.encryptionConfig === undefined ? undefined : encryptionTransformer(options.encryptionConfig);
    } catch (err) {
      throw new Error(`encryption configuration: ${(err as Error).message}`, { cause: err });
    }
    const storage = createStorage(kind, {
      dir: options.dataDir ? join(options.dataDir, 'store') : undefined,
      endpoints: options.etcdServers,
      tls: options.etcdTLS,
      transformer,
      historySize: options.watchHistory,
      log,
    });
    undo.push(() => storage.close());
    await storage.open();

    const registry = new Registry(builtinResources());
    const schemas = createSchemas(registry);
    const pipeline = defaultPipeline(schemas);
    const nodeAuthorization = options.nodeAuthorization ?? true;
    pipeline.mutating.push(
      serviceAllocation(storage),
      recordCSRRequester,
      serviceAccountAdmission(storage),
      ...(nodeAuthorization ? [nodeRestriction(storage)] : []),
    );
    const admission = new WebhookAdmission(storage, log);
    undo.push(() => admission.stop());
    await admission.start();
    admission.install(pipeline);
    // kube's ResourceQuota plugin validates last, after the webhooks.
    pipeline.validating.push(resourceQuotaAdmission(storage));
    const objects = new ObjectService({ storage, schemas, ownership: createFieldOwnership(schemas), pipeline });
    const crds = new CRDController(storage, registry, objects, log);
    const gc = new GarbageCollector(storage, registry, objects, log);
    const namespaces = new NamespaceController(storage, registry, objects, log);
    undo.push(() => crds.stop());
    await crds.start();
    await ensureNamespaces(registry, objects);
    await reconcileBootstrapPolicy(registry, objects);
    const aggregation = new ClusterRoleAggregationController(storage, registry, objects, log);
    undo.push(() => aggregation.stop());
    await aggregation.start();
    await aggregation.idle();
    const rbac = new RbacAuthorizer(storage, log);
    undo.push(() => rbac.stop());
    await rbac.start();
    const nodeGraph = nodeAuthorization ? new NodeGraph(storage, log) : undefined;
    undo.push(() => nodeGraph?.stop());
    await nodeGraph?.start();
    const authorizer = new AuthorizerChain([
      superuserAuthorizer,
      ...(nodeGraph ? [new NodeAuthorizer(nodeGraph)] : []),
      rbac,
      ...(options.authorizationWebhook ? [webhookAuthorizer(options.authorizationWebhook, log)] : []),
    ]);
    admission.useAuthorizer(authorizer);
    undo.push(() => gc.stop());
    await gc.start();
    undo.push(() => namespaces.stop());
    await namespaces.start();
    // With an external client CA (a shoot's ca-client), certificates from our own CA would not authenticate: the
    // controller manager's csrsigning signs with the cluster's CAs there, as in kube.
    const csrSigner = options.clientCA ? undefined : new CSRSigner(storage, registry, objects, credentials.ca, log);
    undo.push(() => csrSigner?.stop());
    await csrSigner?.start();
    const namespaceDefaults = new NamespaceDefaultsController(storage, registry, objects, credentials.ca.certPem, log);
    undo.push(() => namespaceDefaults.stop());
    await namespaceDefaults.start();
    const quotas = new ResourceQuotaController(storage, log);
    undo.push(() => quotas.stop());
    await quotas.start();

    const authenticators: Authenticator[] = [clientCertificateAuthenticator];
    if (options.tokenFile)
      authenticators.push(staticTokenAuthenticator(parseTokenFile(await readFile(options.tokenFile, 'utf8'))));
    const serviceAccountTokens = serviceAccountTokensFor(options.serviceAccount, credentials, storage);
    authenticators.push(serviceAccountTokens.authenticator, bootstrapTokenAuthenticator(storage));
    let address = '';
    const kubeletCA =
      options.kubeletCertificateAuthority === true ? credentials.ca.certPem : options.kubeletCertificateAuthority;
    const kubelets = new KubeletLocator(
      registry,
      objects,
      options.kubeletClientCertificate ?? credentials.admin,
      kubeletCA,
    );
    const handlerDeps: HandlerDeps = {
      registry,
      objects,
      authenticators,
      anonymous: options.anonymous ?? false,
      openapi: schemas.openapi,
      authorizer,
      reviews: reviewHandlers(authorizer, rbac, authenticators, serviceAccountTokens),
      subresourceHandlers: new Map([
        [
          'serviceaccounts/token',
          tokenRequestHandler(serviceAccountTokens, nodeAuthorization ? nodeTokenRequestAdmission(storage) : undefined),
        ],
        ['pods/binding', podBindingHandler(objects)],
        [
          'pods/eviction',
          nodeAuthorization
            ? nodeRestrictedEviction(storage, podEvictionHandler(objects, registry))
            : podEvictionHandler(objects, registry),
        ],
        ['pods/log', podLogHandler(kubelets)],
        ['pods/exec', upgradeRequired],
        ['pods/attach', upgradeRequired],
        ['pods/portforward', upgradeRequired],
      ]),
      upgradeHandlers: new Map(
        ['exec', 'attach', 'portforward'].map((sub) => [`pods/${sub}`, podStreamUpgradeHandler(kubelets)]),
      ),
      metrics,
      audit: auditor,
      serverAddress: () => address,
      ready: () => true,
      version: {
        ...KUBERNETES_VERSION,
        gitCommit: '0000000000000000000000000000000000000000',
        gitTreeState: 'clean',
        buildDate: '2026-01-01T00:00:00Z',
        goVersion: 'node' + process.versions.node,
        compiler: 'tsup',
        platform: `${process.platform}/${process.arch}`,
      },
    };
    const handler = createHandler(handlerDeps);
    const serving = options.servingCertificate ?? credentials.serving;
    let server: Server;
    try {
      server = createServer(
        {
          cert: serving.certPem,
          key: serving.keyPem,
          ca: options.clientCA ?? credentials.ca.certPem,
          requestCert: true,
          rejectUnauthorized: false,
        },
        handler,
      );
    } catch (err) {
      throw new Error(`serving certificate, key or client CA: ${(err as Error).message}`, { cause: err });
    }
    server.on('upgrade', createUpgradeHandler(handlerDeps));
    server.keepAliveTimeout = 65_000;
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) => {
        // kube-apiserver's --secure-port=443 in a local Pod: a port below 1024 needs privileges a user may not have.
        const hint =
          err.code === 'EACCES' && (options.port ?? 0) < 1024
            ? ' (ports below 1024 need root or a lower net.ipv4.ip_unprivileged_port_start)'
            : '';
        reject(new Error(`listening on ${host}:${options.port ?? 0}: ${err.message}${hint}`, { cause: err }));
      });
      server.listen(options.port ?? 0, host, () => resolve());
    });
    undo.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const listening = server.address() as AddressInfo;
    const port = listening.port;
    // A wildcard listen may have been turned into a Pod's address (network preload): the address really used.
    const reachable = isWildcard(listening.address) ? '127.0.0.1' : listening.address;
    address = `${reachable}:${port}`;
    const url = `https://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
    const ownCredentials = !options.servingCertificate && !options.clientCA;
    const config = ownCredentials
      ? kubeconfig('local', url, credentials.ca.certPem, {
          name: 'admin',
          clientCertificatePem: credentials.admin.certPem,
          clientKeyPem: credentials.admin.keyPem,
        })
      : '';
    let kubeconfigPath: string | undefined;
    if (options.dataDir && ownCredentials) {
      await mkdir(options.dataDir, { recursive: true });
      kubeconfigPath = join(options.dataDir, 'kubeconfig');
      await writeSecret(kubeconfigPath, config);
    } else if (options.dataDir) {
      // One written by an earlier start with the data dir's own credentials would no longer work.
      await rm(join(options.dataDir, 'kubeconfig'), { force: true });
    }
    if (options.dataDir) await writeFile(join(options.dataDir, 'apiserver.url'), url + '\n');
    await ensureKubernetesService(registry, objects, options.advertiseAddress ?? reachable, port);
    log.info({ url, storage: kind }, 'Local API server started');
    return new LocalApiServer(
      url,
      port,
      config,
      credentials,
      registry,
      objects,
      storage,
      server,
      [
        crds,
        gc,
        namespaces,
        aggregation,
        rbac,
        ...(nodeGraph ? [nodeGraph] : []),
        ...(csrSigner ? [csrSigner] : []),
        namespaceDefaults,
        quotas,
        admission,
      ],
      auditor,
      lock,
      kubeconfigPath,
    );
  }

  async stop(): Promise<void> {
    for (const c of this.controllers) c.stop();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
    // After the last connection: every request's final stage is written or sent.
    await this.auditor.stop();
    await this.storage.close();
    await this.dataDirLock?.release();
  }
}

function isWildcard(address: string): boolean {
  return address === '0.0.0.0' || address === '::' || address === '';
}

// The data dir's key unless the options name another signing key; verification keys and issuer as configured.
function serviceAccountTokensFor(
  options: ServiceAccountOptions | undefined,
  credentials: ClusterCredentials,
  storage: Storage,
): ServiceAccountTokens {
  try {
    return new ServiceAccountTokens(options?.signingKeyPem ?? credentials.serviceAccountKeyPem, storage, {
      issuer: options?.issuer,
      ...(options?.acceptedIssuers ? { acceptedIssuers: options.acceptedIssuers } : {}),
      verificationKeysPem: options?.verificationKeysPem,
      apiAudiences: options?.apiAudiences,
    });
  } catch (err) {
    throw new Error(`service account keys: ${(err as Error).message}`, { cause: err });
  }
}

async function ensureNamespaces(registry: Registry, objects: ObjectService): Promise<void> {
  const def = registry.get('', 'v1', 'namespaces')!;
  for (const name of DEFAULT_NAMESPACES) {
    try {
      await objects.create(
        def,
        '',
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
        internalContext('kube-apiserver'),
      );
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 409)) throw err;
    }
  }
}

/** The `default/kubernetes` Service and its Endpoints, pointing at this server, as kube-apiserver maintains them. */
async function ensureKubernetesService(
  registry: Registry,
  objects: ObjectService,
  host: string,
  port: number,
): Promise<void> {
  const ctx = internalContext('kube-apiserver');
  const services = registry.get('', 'v1', 'services')!;
  const endpoints = registry.get('', 'v1', 'endpoints')!;
  const labels = { component: 'apiserver', provider: 'kubernetes' };
  const subsets = [{ addresses: [{ ip: host }], ports: [{ name: 'https', port, protocol: 'TCP' }] }];
  // On a restart (durable storage) the Service exists already; creating it again would fail its IP check.
  const existing = await objects.get(services, 'default', 'kubernetes').catch((err) => {
    if (err instanceof ApiError && err.code === 404) return undefined;
    throw err;
  });
  if (!existing) {
    await objects.create(
      services,
      'default',
      {
        metadata: { name: 'kubernetes', labels },
        spec: {
          clusterIP: ipAt(1),
          ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: port }],
          sessionAffinity: 'None',
          type: 'ClusterIP',
        },
      },
      ctx,
    );
  }
  try {
    const current = await objects.get(endpoints, 'default', 'kubernetes');
    await objects.update(endpoints, 'default', 'kubernetes', { ...current, subsets }, ctx);
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 404)) throw err;
    await objects.create(
      endpoints,
      'default',
      { metadata: { name: 'kubernetes', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } }, subsets },
      ctx,
    );
  }
}

/**
 * kube's storage_rbac post-start hook: the bootstrap ClusterRoles and ClusterRoleBindings reconciled on every start
 * (missing ones created, missing rules, selectors and subjects added, nothing removed, `autoupdate: "false"` left
 * alone; see auth/policy-reconciliation.ts).
 */
async function reconcileBootstrapPolicy(registry: Registry, objects: ObjectService): Promise<void> {
  const ctx = internalContext('kube-apiserver');
  const kinds = [
    { resource: 'clusterroles', expected: bootstrapClusterRoles(), reconcile: reconcileRole },
    { resource: 'clusterrolebindings', expected: bootstrapClusterRoleBindings(), reconcile: reconcileBinding },
    { resource: 'roles', expected: bootstrapRoles(), reconcile: reconcileRole },
    { resource: 'rolebindings', expected: bootstrapRoleBindings(), reconcile: reconcileBinding },
  ];
  for (const { resource, expected, reconcile } of kinds) {
    const def = registry.get('rbac.authorization.k8s.io', 'v1', resource)!;
    // Each object is one read and at most one write; side by side, a start waits for a few storage round trips
    // instead of some 150 in a row (against etcd, each write an fsync).
    const queue = [...expected];
    const reconcileNext = async (): Promise<void> => {
      for (let object = queue.shift(); object; object = queue.shift()) await reconcileOne(object);
    };
    const reconcileOne = async (object: (typeof expected)[number]): Promise<void> => {
      const { name, namespace = '' } = object.metadata;
      const existing = await objects.get(def, namespace, name).catch((err) => {
        if (err instanceof ApiError && err.code === 404) return undefined;
        throw err;
      });
      const result = reconcile(existing, object);
      try {
        if (result.action === 'create') await objects.create(def, namespace, result.object, ctx);
        else if (result.action === 'update') await objects.update(def, namespace, name, result.object, ctx);
        else if (result.action === 'recreate') {
          await objects.delete(def, namespace, name, {}, ctx);
          await objects.create(def, namespace, result.object, ctx);
        }
      } catch (err) {
        throw new Error(`reconciling bootstrap RBAC ${resource} ${namespace ? `${namespace}/` : ''}${name}`, {
          cause: err,
        });
      }
    };
    await Promise.all(Array.from({ length: BOOTSTRAP_POLICY_CONCURRENCY }, reconcileNext));
  }
}

/** How many bootstrap RBAC objects are reconciled at a time. */
const BOOTSTRAP_POLICY_CONCURRENCY = 16;
