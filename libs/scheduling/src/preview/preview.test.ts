import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessagingClient, codecFor } from '@gardener-ts/messaging';
import { createLogger } from '@gardener-ts/logging';
import { startNatsServer, type NatsServer } from '@gardener-ts/testing';
import { cloudProfile, seed, shoot } from '../../test/fixtures.js';
import { staticSchedulingCache } from '../controller/scheduling-cache.js';
import { previewScheduling } from './preview.js';
import { requestPreview } from './request.js';
import { servePreview } from './responder.js';
import { PREVIEW_SUBJECT } from './subjects.js';

const cache = staticSchedulingCache({
  seeds: [seed('busy'), seed('idle'), seed('far', (s) => (s.spec.provider.region = 'us-east-1'))],
  shoots: [shoot('x', (s) => (s.spec.seedName = 'busy')), shoot('existing')],
  cloudProfiles: [cloudProfile()],
});
const options = { strategy: 'SameRegion' as const };

describe('previewScheduling', () => {
  it('ranks the candidates of a shoot spec without binding it', () => {
    const answer = previewScheduling({ shootJson: JSON.stringify(shoot('new')) }, cache, options);
    expect(answer.seed).toBe('idle');
    expect(answer.candidates!.map((c) => [c.seed, c.shoots])).toEqual([
      ['idle', 0],
      ['busy', 1],
    ]);
    expect(answer.rejected).toEqual([
      {
        seed: 'far',
        region: 'us-east-1',
        rejectionReason: 'region "us-east-1" differs from the shoot\'s region "eu-west-1"',
      },
    ]);
    expect(answer.strategy).toBe('SameRegion');
  });

  it('previews an existing shoot by name, even a bound one', () => {
    expect(previewScheduling({ shoot: { namespace: 'garden-dev', name: 'existing' } }, cache, options).seed).toBe(
      'idle',
    );
    expect(previewScheduling({ shoot: { namespace: 'garden-dev', name: 'x' } }, cache, options).seed).toBe('idle');
  });

  it('caps the rejected seeds', () => {
    const answer = previewScheduling(
      { shootJson: JSON.stringify(shoot('new')), maxRejected: 1 },
      staticSchedulingCache({
        seeds: [seed('a', (s) => (s.spec.provider.region = 'x')), seed('b', (s) => (s.spec.provider.region = 'y'))],
        cloudProfiles: [cloudProfile()],
      }),
      options,
    );
    expect(answer.rejected).toHaveLength(1);
    expect(answer.omittedRejected).toBe(1);
  });

  it.each([
    ['not JSON', { shootJson: '{' }, /not JSON/],
    ['no spec', { shootJson: '{"metadata":{}}' }, /spec.provider.type and spec.region/],
    ['no shoot at all', {}, /names no shoot/],
    ['an unknown shoot', { shoot: { namespace: 'a', name: 'b' } }, /shoot a\/b not found/],
  ])('answers with an error for %s', (_name, request, error) => {
    expect(previewScheduling(request, cache, options).error).toMatch(error);
  });
});

describe('the preview over NATS', () => {
  let nats: NatsServer;
  let server: MessagingClient;
  let client: MessagingClient;
  const log = createLogger({ name: 'test', level: 'silent' });

  beforeAll(async () => {
    nats = await startNatsServer({});
    server = new MessagingClient({ servers: nats.url, name: 'scheduler', logger: log }).start();
    client = new MessagingClient({ servers: nats.url, name: 'cli', logger: log }).start();
    servePreview(server, (request) => previewScheduling(request, cache, options), { log });
    await server.connection();
    await server.flush();
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
    await nats?.stop();
  });

  it('answers a request with the ranked candidates', async () => {
    const answer = await requestPreview(client, { shoot: shoot('new') });
    expect(answer.seed).toBe('idle');
    expect(answer.candidates.map((c) => c.seed)).toEqual(['idle', 'busy']);
  });

  it('answers undecodable requests with an error', async () => {
    const nc = await client.connection();
    const reply = await nc.request(PREVIEW_SUBJECT, new Uint8Array([0xff, 0xff, 0xff]), { timeout: 2000 });
    expect(codecFor('gardener.v1.SchedulingPreviewResponse').decode(reply.data).error).toMatch(
      /cannot answer the preview request/,
    );
  });
});
