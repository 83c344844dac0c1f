// Serves CustomResourceDefinitions as they come and go: registers their versions at once, keeps their status
// (NamesAccepted, Established, storedVersions), and on deletion removes every instance before the CRD goes.
import type { Logger } from '@gardener-ts/logging';
import type { Registry } from '../registry/registry.js';
import type { ResourceDefinition } from '../registry/types.js';
import type { KubeObject, Storage, StorageEvent, Watch } from '../storage/types.js';
import { now } from '../api/meta.js';
import { internalContext } from '../server/context.js';
import type { ObjectService } from '../server/objects.js';
import { collectionPrefix } from '../server/keys.js';
import { definitionsFromCRD, establishedStatus } from './crd-definitions.js';
import { attachConverter, httpsPoster, webhookConversionOf, WebhookConverter } from '../server/conversion/converter.js';
import { KeyedQueue } from './queue.js';
import { watchPrefix } from './watch-prefix.js';

export const CRD_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';
const PREFIX = '/registry/apiextensions.k8s.io/customresourcedefinitions/';
const ctx = internalContext('apiextensions-apiserver');

export class CRDController {
  private watch?: Watch;
  private readonly queue: KeyedQueue;
  private readonly crds = new Map<string, KubeObject>();

  constructor(
    private readonly storage: Storage,
    private readonly registry: Registry,
    private readonly objects: ObjectService,
    private readonly log: Logger,
  ) {
    this.queue = new KeyedQueue(
      (name) => this.reconcile(name),
      (name, err) => this.log.warn({ err, crd: name }, 'CRD reconcile failed'),
    );
  }

  async start(): Promise<void> {
    this.watch = await watchPrefix(this.storage, PREFIX, (e) => this.observe(e), this.log);
  }

  stop(): void {
    this.watch?.stop();
    this.queue.stop();
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }

  /** Registers or removes the served versions synchronously with the event, then reconciles status. */
  private observe(event: StorageEvent): void {
    const crd = event.object;
    const name: string = crd.metadata.name;
    const spec = crd.spec ?? {};
    if (event.type === 'DELETED') {
      this.crds.delete(name);
      this.registry.setResource(spec.group, spec.names?.plural, []);
      return;
    }
    this.crds.set(name, crd);
    if (!this.namesConflict(crd)) {
      const defs = definitionsFromCRD(crd);
      // strategy Webhook: the served versions convert through the CRD's conversion webhook.
      const webhook = webhookConversionOf(crd);
      attachConverter(defs, webhook && new WebhookConverter(webhook, httpsPoster(this.storage)));
      this.registry.setResource(spec.group, spec.names?.plural, defs);
    }
    this.queue.add(name);
  }

  private namesConflict(crd: KubeObject): string | undefined {
    const { group, names } = crd.spec ?? {};
    for (const other of this.crds.values()) {
      if (other.metadata.name === crd.metadata.name || other.spec?.group !== group) continue;
      if (other.spec?.names?.kind === names?.kind) return `"${names.kind}" is already in use`;
      if (other.spec?.names?.plural === names?.plural) return `"${names.plural}" is already in use`;
    }
    return undefined;
  }

  private crdDefinition(): ResourceDefinition {
    const def = this.registry.get('apiextensions.k8s.io', 'v1', 'customresourcedefinitions');
    if (!def) throw new Error('customresourcedefinitions are not registered');
    return def;
  }

  private async reconcile(name: string): Promise<void> {
    const crd = this.crds.get(name);
    if (!crd) return;
    const def = this.crdDefinition();
    if (crd.metadata.deletionTimestamp) {
      await this.deleteInstances(crd);
      const finalizers = (crd.metadata.finalizers ?? []).filter((f: string) => f !== CRD_FINALIZER);
      if (finalizers.length !== (crd.metadata.finalizers ?? []).length) {
        const latest = await this.objects.get(def, '', name);
        await this.objects.update(def, '', name, { ...latest, metadata: { ...latest.metadata, finalizers } }, ctx);
      }
      return;
    }
    const status = establishedStatus(crd, now(), this.namesConflict(crd));
    await this.objects.update(def, '', name, { ...crd, status }, ctx, 'status');
  }

  /** Deletes every custom resource of the CRD (respecting their finalizers); retries until none is left. */
  private async deleteInstances(crd: KubeObject): Promise<void> {
    const defs = this.registry.versionsOf(crd.spec.group, crd.spec.names.plural);
    const def = defs.find((d) => d.version === d.storageVersion) ?? defs[0];
    if (!def) return;
    const remaining = await this.storage.list({ prefix: collectionPrefix(def) });
    for (const item of remaining.items) {
      if (item.object.metadata.deletionTimestamp) continue;
      await this.objects
        .delete(def, item.object.metadata.namespace ?? '', item.object.metadata.name, {}, ctx)
        .catch(() => undefined);
    }
    const after = await this.storage.list({ prefix: collectionPrefix(def), limit: 1 });
    if (after.items.length > 0) {
      this.queue.addAfter(crd.metadata.name, 200);
      throw new Error(`waiting for ${def.resource}.${def.group} instances to be deleted`);
    }
  }
}
