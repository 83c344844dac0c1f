// Asking a running scheduler for a preview over NATS (for tools, tests and the CLI).
import type { Shoot } from '@gardener-ts/api';
import { codecFor, type MessagingClient, type SchedulingPreviewResponse } from '@gardener-ts/messaging';
import { PREVIEW_SUBJECT } from './subjects.js';

const requestCodec = codecFor('gardener.v1.SchedulingPreviewRequest');
const responseCodec = codecFor('gardener.v1.SchedulingPreviewResponse');

export interface PreviewTarget {
  /** A shoot spec to preview (need not exist). */
  shoot?: Shoot | Record<string, unknown>;
  /** Or an existing shoot by name. */
  existing?: { namespace: string; name: string };
  maxRejected?: number;
}

/** Sends the request and waits for the answer; rejects when no scheduler answers within `timeoutMs`. */
export async function requestPreview(
  client: MessagingClient,
  target: PreviewTarget,
  { timeoutMs = 5000, subject = PREVIEW_SUBJECT } = {},
): Promise<SchedulingPreviewResponse> {
  const data = requestCodec.encode({
    shootJson: target.shoot ? JSON.stringify(target.shoot) : '',
    shoot: target.existing
      ? { kind: 'Shoot', namespace: target.existing.namespace, name: target.existing.name }
      : undefined,
    maxRejected: target.maxRejected ?? 0,
  });
  const nc = await client.connection();
  const reply = await nc.request(subject, data, { timeout: timeoutMs });
  return responseCodec.decode(reply.data);
}
