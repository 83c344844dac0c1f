// What kube-controller-manager puts into every namespace: the `default` ServiceAccount (serviceaccount controller)
// and the `kube-root-ca.crt` ConfigMap with the cluster CA (root-ca-cert-publisher); both come back if deleted.
import type { Logger } from '@gardener-ts/logging';
import { ApiError } from '../api/errors.js';
import type { Registry } from '../registry/registry.js';
import type { StorageEvent, Storage, Watch } from '../storage/types.js';
import { internalContext } from '../server/context.js';
import type { ObjectService } from '../server/objects.js';
import { KeyedQueue } from './queue.js';
import { watchPrefix } from './watch-prefix.js';

const ctx = internalContext('kube-controller-manager');
export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
/** kube's `kubernetes.io/description` of that ConfigMap (kube-controller-manager's root-ca-cert-publisher writes it too). */
export const ROOT_CA_CONFIGMAP_DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

export class NamespaceDefaultsController {
  private readonly watches: Watch[] = [];
  private readonly queue: KeyedQueue;

  constructor(
    private readonly storage: Storage,
    private readonly registry: Registry,
    private readonly objects: ObjectService,
    private readonly caPem: string,
    private readonly log: Logger,
  ) {
    this.queue = new KeyedQueue(
      (ns) => this.reconcile(ns),
      (ns, err) => this.log.debug({ err, namespace: ns }, 'Namespace defaults pending'),
    );
  }

  async start(): Promise<void> {
    const namespaceOf = (e: StorageEvent) =>
      e.key.startsWith('/registry/core/namespaces/') ? e.object.metadata.name : e.object.metadata.namespace;
    const requeue = (e: StorageEvent) => {
      if (e.key.startsWith('/registry/core/namespaces/') ? e.type !== 'DELETED' : e.type === 'DELETED')
        this.queue.add(namespaceOf(e));
    };
    this.watches.push(await watchPrefix(this.storage, '/registry/core/namespaces/', requeue, this.log));
    this.watches.push(await watchPrefix(this.storage, '/registry/core/serviceaccounts/', requeue, this.log));
    this.watches.push(await watchPrefix(this.storage, '/registry/core/configmaps/', requeue, this.log));
  }

  stop(): void {
    for (const w of this.watches) w.stop();
    this.queue.stop();
  }

  private async reconcile(namespace: string): Promise<void> {
    const ns = await this.storage.get(`/registry/core/namespaces/${namespace}`);
    if (!ns || ns.object.metadata.deletionTimestamp) return;
    await this.ensure('serviceaccounts', namespace, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'default' },
    });
    await this.ensure('configmaps', namespace, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: ROOT_CA_CONFIGMAP,
        annotations: {
          'kubernetes.io/description': ROOT_CA_CONFIGMAP_DESCRIPTION,
        },
      },
      data: { 'ca.crt': this.caPem },
    });
  }

  private async ensure(resource: string, namespace: string, object: Record<string, any>): Promise<void> {
    if (await this.storage.get(`/registry/core/${resource}/${namespace}/${object.metadata.name}`)) return;
    try {
      await this.objects.create(this.registry.get('', 'v1', resource)!, namespace, object, ctx);
    } catch (err) {
      // Gone meanwhile (namespace terminating) or created concurrently: nothing to do.
      if (!(err instanceof ApiError && (err.code === 409 || err.code === 403 || err.code === 404))) throw err;
    }
  }
}
