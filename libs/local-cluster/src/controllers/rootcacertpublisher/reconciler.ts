// kube-controller-manager's root-ca-cert-publisher, per namespace: keeps ConfigMap `kube-root-ca.crt` holding the
// --root-ca-file bundle (publish.ts says what to write). It reads from the cache and only creates and updates, all its
// kube role (system:controller:root-ca-cert-publisher) allows. A namespace that is gone or terminating is left alone,
// and so is a create the API server refuses for that reason (NotFound, Forbidden with cause NamespaceTerminating); a
// write that lost a race (AlreadyExists, Conflict, NotFound on update) is retried with back-off. Records no events.
import {
  ConfigMapKind,
  ignoreNotFound,
  isAlreadyExists,
  isConflict,
  isNotFound,
  NamespaceKind,
  ApiError,
  type Client,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import { namespaceActive, planRootCAConfigMap, ROOT_CA_CONFIGMAP } from './publish.js';

/** Publishes the root CA into the namespace `req.name`; see the file header. */
export class RootCACertPublisherReconciler {
  constructor(
    /** Reads (the cache) and writes of Namespaces and ConfigMaps. */
    private readonly client: Pick<Client, 'get' | 'create' | 'update'>,
    /** The CA bundle to publish (PEM). */
    private readonly rootCA: string,
  ) {}

  async reconcile(req: Request, { log }: ReconcileContext): Promise<ReconcileResult | void> {
    const namespace = await this.client.get(NamespaceKind, { name: req.name }).catch(ignoreNotFound);
    if (!namespace || !namespaceActive(namespace)) return;
    const existing = await this.client
      .get(ConfigMapKind, { namespace: req.name, name: ROOT_CA_CONFIGMAP })
      .catch(ignoreNotFound);
    const plan = planRootCAConfigMap(req.name, this.rootCA, existing);
    if (plan.kind === 'none') return;
    try {
      if (plan.kind === 'create') await this.client.create(plan.configMap);
      else await this.client.update(plan.configMap);
    } catch (err) {
      if (plan.kind === 'create' && (isNotFound(err) || namespaceTerminating(err))) return;
      if (isAlreadyExists(err) || isConflict(err) || isNotFound(err)) return { requeue: true };
      throw new Error(
        `${plan.kind === 'create' ? 'creating' : 'updating'} ConfigMap ${req.name}/${ROOT_CA_CONFIGMAP}`,
        {
          cause: err,
        },
      );
    }
    log.info({ namespace: req.name }, plan.kind === 'create' ? 'Published root CA' : 'Updated published root CA');
  }
}

/** The API server refused new content because the namespace is being deleted (kube's NamespaceTerminatingCause). */
function namespaceTerminating(err: unknown): boolean {
  return err instanceof ApiError && !!err.details?.causes?.some((c) => c.reason === 'NamespaceTerminating');
}
