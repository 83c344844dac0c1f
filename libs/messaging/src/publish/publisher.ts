// Typed publishing: a component states what happened, the publisher adds the envelope header and the subject.
// Like the client underneath it never throws into a reconcile: a message that cannot be built is logged and counted.
import { randomUUID } from 'node:crypto';
import type { Logger } from '@gardener-ts/logging';
import type { Envelope } from '../generated/types.js';
import type { MessagingClient, PublishResult } from '../connection/client.js';
import type { MessageInput } from '../schema/codec.js';
import { encodeEnvelope, toTimestamp, type EventKind, type Payloads } from '../schema/envelope.js';
import { eventSubject, heartbeatSubject, wakeUpSubject } from '../subjects/subjects.js';

export interface PublisherIdentity {
  /** The publishing component, e.g. "gardenlet". */
  source: string;
  /** The seed the component acts for; absent for garden components. */
  seed?: string;
}

/** The object an event is about. */
export interface EventObject {
  kind: string;
  namespace?: string;
  name: string;
  uid?: string;
  generation?: number;
}

export class Publisher {
  private readonly log: Logger;
  private readonly now: () => Date;

  constructor(
    private readonly client: MessagingClient,
    private readonly identity: PublisherIdentity,
    options: { logger?: Logger; now?: () => Date } = {},
  ) {
    this.log = options.logger ?? client.log;
    this.now = options.now ?? (() => new Date());
  }

  event<K extends EventKind>(object: EventObject, kind: K, payload: MessageInput<Payloads[K]>): PublishResult {
    return this.send(
      () =>
        eventSubject({ seed: this.identity.seed, kind: object.kind, namespace: object.namespace, name: object.name }),
      () => ({
        metadata: {
          ...this.header(),
          object: { kind: object.kind, namespace: object.namespace ?? '', name: object.name, uid: object.uid ?? '' },
          generation: object.generation ?? 0,
        },
        [kind]: payload,
      }),
    );
  }

  operationProgress(object: EventObject, progress: MessageInput<Payloads['operationProgress']>): PublishResult {
    return this.event(object, 'operationProgress', progress);
  }

  conditionTransition(object: EventObject, transition: MessageInput<Payloads['conditionTransition']>): PublishResult {
    return this.event(object, 'conditionTransition', transition);
  }

  schedulingDecision(shoot: EventObject, decision: MessageInput<Payloads['schedulingDecision']>): PublishResult {
    return this.event(shoot, 'schedulingDecision', decision);
  }

  heartbeat(heartbeat: MessageInput<Payloads['heartbeat']> & { component: string; identity: string }): PublishResult {
    return this.send(
      () =>
        heartbeatSubject({ seed: this.identity.seed, component: heartbeat.component, identity: heartbeat.identity }),
      () => ({ metadata: this.header(), heartbeat }),
    );
  }

  wakeUp(target: { kind: string; namespace?: string; name: string; uid?: string }, reason: string): PublishResult {
    return this.send(
      () =>
        wakeUpSubject({ seed: this.identity.seed, kind: target.kind, namespace: target.namespace, name: target.name }),
      () => ({
        metadata: this.header(),
        wakeUp: {
          target: { kind: target.kind, namespace: target.namespace ?? '', name: target.name, uid: target.uid ?? '' },
          reason,
        },
      }),
    );
  }

  private header() {
    return {
      id: randomUUID(),
      time: toTimestamp(this.now()),
      source: this.identity.source,
      seed: this.identity.seed ?? '',
    };
  }

  private send(subject: () => string, envelope: () => MessageInput<Envelope>): PublishResult {
    let built: { subject: string; data: Uint8Array };
    try {
      built = { subject: subject(), data: encodeEnvelope(envelope()) };
    } catch (err) {
      this.client.metrics.dropped.inc({ reason: 'invalid' });
      this.log.error({ err }, 'Cannot publish an invalid message');
      return 'dropped';
    }
    return this.client.publish(built.subject, built.data);
  }
}
