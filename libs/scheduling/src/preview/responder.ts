// Answers preview requests on NATS. Never throws into the messaging client: a request that cannot be decoded gets an
// answer with `error` set.
import type { Logger } from '@gardener-ts/logging';
import { codecFor, type MessageSubscription, type MessagingClient } from '@gardener-ts/messaging';
import type { PreviewRequest } from './preview.js';
import { PREVIEW_QUEUE, PREVIEW_SUBJECT } from './subjects.js';

const requestCodec = codecFor('gardener.v1.SchedulingPreviewRequest');
const responseCodec = codecFor('gardener.v1.SchedulingPreviewResponse');

export type PreviewHandler = (request: PreviewRequest) => Parameters<typeof responseCodec.encode>[0];

export function servePreview(
  client: MessagingClient,
  handler: PreviewHandler,
  options: { log?: Logger; subject?: string } = {},
): MessageSubscription {
  const log = options.log ?? client.log;
  return client.subscribe(
    options.subject ?? PREVIEW_SUBJECT,
    (msg) => {
      if (!msg.reply) {
        log.debug({ subject: msg.subject }, 'Ignoring a preview request without a reply subject');
        return;
      }
      let answer: Uint8Array;
      try {
        const request = requestCodec.decode(msg.data);
        answer = responseCodec.encode(
          handler({ shootJson: request.shootJson, maxRejected: request.maxRejected, shoot: request.shoot }),
        );
      } catch (err) {
        log.info({ err: String(err) }, 'Cannot answer a preview request');
        answer = responseCodec.encode({ error: `cannot answer the preview request: ${(err as Error).message}` });
      }
      msg.respond(answer);
    },
    { queue: PREVIEW_QUEUE },
  );
}
