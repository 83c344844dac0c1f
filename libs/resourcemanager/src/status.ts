// Writes a ManagedResource's status only when it changes, and publishes the condition transitions it makes.
import type { Client } from '@gardener-ts/controller-runtime';
import type { resourcesv1alpha1 } from '@gardener-ts/api';
import type { Logger } from '@gardener-ts/logging';
import { publishTransitions, type TransitionSink } from './events/transitions.js';

export type ManagedResource = resourcesv1alpha1.ManagedResource;
export type MRStatus = NonNullable<ManagedResource['status']>;

const stable = (s: MRStatus | undefined) =>
  JSON.stringify(s ?? {}, (_k, v: unknown) => (Array.isArray(v) && v.length === 0 ? undefined : v));

export class StatusWriter {
  constructor(
    private readonly client: Client,
    private readonly sink: TransitionSink | undefined,
    private readonly log: Logger,
  ) {}

  /** Writes `status` (merged over the current one) if it differs; returns the ManagedResource as it is now. */
  async update(mr: ManagedResource, status: Partial<MRStatus>): Promise<ManagedResource> {
    const next: MRStatus = { ...mr.status, ...status };
    for (const key of Object.keys(next) as (keyof MRStatus)[]) if (next[key] === undefined) delete next[key];
    if (stable(next) === stable(mr.status)) return mr;
    const updated = await this.client.updateStatus({
      ...mr,
      apiVersion: 'resources.gardener.cloud/v1alpha1',
      kind: 'ManagedResource',
      status: next,
    } as ManagedResource);
    publishTransitions(
      this.sink,
      {
        kind: 'ManagedResource',
        namespace: mr.metadata?.namespace,
        name: mr.metadata?.name ?? '',
        uid: mr.metadata?.uid,
        generation: mr.metadata?.generation,
      },
      mr.status?.conditions,
      next.conditions,
      this.log,
    );
    return updated;
  }
}
