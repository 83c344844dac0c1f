// Binding: spec.seedName. Gardener updates the shoots/binding subresource of its aggregated API server;
// CustomResourceDefinitions have no such subresource, so the scheduler updates the Shoot itself, with the
// resourceVersion it decided on (a shoot changed meanwhile gets a Conflict and is decided again).
import type { Shoot } from '@gardener-ts/api';
import type { Client } from '@gardener-ts/controller-runtime';
import { ShootKind } from './kinds.js';

export const FIELD_MANAGER = 'gardener-scheduler';

export function bindShoot(client: Pick<Client, 'update'>, shoot: Shoot, seedName: string): Promise<Shoot> {
  // The cached object is frozen: write a copy. Its resourceVersion makes the update conditional.
  const bound = structuredClone(shoot);
  bound.apiVersion = 'core.gardener.cloud/v1beta1';
  bound.kind = 'Shoot';
  bound.spec.seedName = seedName;
  return client.update(bound, { fieldManager: FIELD_MANAGER });
}

/**
 * Gardener's report of a failed scheduling in the shoot's status: lastOperation Create/Pending with the reason. Not
 * written again while the description stays the same, so retries do not churn the object.
 */
export async function reportPending(
  client: Pick<Client, 'patch'>,
  shoot: Shoot,
  description: string,
  now = new Date(),
): Promise<boolean> {
  const last = shoot.status?.lastOperation;
  if (last?.type === 'Create' && last.state === 'Pending' && last.description === description) return false;
  await client.patch(
    ShootKind,
    { namespace: shoot.metadata?.namespace, name: shoot.metadata?.name ?? '' },
    {
      type: 'merge',
      patch: {
        status: {
          lastOperation: {
            type: 'Create',
            state: 'Pending',
            description,
            lastUpdateTime: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
            progress: last?.progress ?? 0,
          },
        },
      },
    },
    { subresource: 'status', fieldManager: FIELD_MANAGER },
  );
  return true;
}
