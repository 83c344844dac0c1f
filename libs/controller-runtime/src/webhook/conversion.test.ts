// The conversion webhook handler: decoding ConversionReviews, converting each object, Success and Failure answers,
// and HTTP 400/405 for requests that are not ConversionReviews — over a real WebhookServer.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCA, issueCertificate } from '@gardener-ts/local-apiserver';
import {
  convertReview,
  decodeConversionReview,
  MalformedConversionReviewError,
  type ConvertFunction,
} from './conversion.js';
import { WebhookServer } from './server.js';

const toV2: ConvertFunction = (o, desired) => {
  if (o.metadata?.name === 'bad') throw new Error('cannot convert bad');
  return { ...o, apiVersion: desired, spec: { replicas: o.spec.size } };
};

const review = (objects: unknown[], apiVersion = 'apiextensions.k8s.io/v1') => ({
  apiVersion,
  kind: 'ConversionReview',
  request: { uid: 'u-1', desiredAPIVersion: 'example.com/v2', objects },
});
const widget = (name: string) => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name },
  spec: { size: 2 },
});

describe('convertReview', () => {
  it('answers Success with every object converted, in the review version', async () => {
    const answer = await convertReview(
      decodeConversionReview(JSON.stringify(review([widget('a'), widget('b')]))),
      toV2,
    );
    expect(answer).toEqual({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      response: {
        uid: 'u-1',
        result: { status: 'Success' },
        convertedObjects: [
          { apiVersion: 'example.com/v2', kind: 'Widget', metadata: { name: 'a' }, spec: { replicas: 2 } },
          { apiVersion: 'example.com/v2', kind: 'Widget', metadata: { name: 'b' }, spec: { replicas: 2 } },
        ],
      },
    });
    const beta = await convertReview(
      decodeConversionReview(JSON.stringify(review([], 'apiextensions.k8s.io/v1beta1'))),
      toV2,
    );
    expect(beta.apiVersion).toBe('apiextensions.k8s.io/v1beta1');
  });
  it('answers Failure with the message when one object fails', async () => {
    const answer = await convertReview(
      decodeConversionReview(JSON.stringify(review([widget('a'), widget('bad')]))),
      toV2,
    );
    expect(answer.response).toEqual({
      uid: 'u-1',
      convertedObjects: [],
      result: { status: 'Failure', message: 'cannot convert bad' },
    });
  });
  it('refuses what is not a ConversionReview request', () => {
    expect(() => decodeConversionReview('{')).toThrow(MalformedConversionReviewError);
    expect(() =>
      decodeConversionReview(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' })),
    ).toThrow('expected apiextensions.k8s.io/v1 ConversionReview');
    expect(() => decodeConversionReview(JSON.stringify({ ...review([]), request: undefined }))).toThrow(
      'conversion request is empty',
    );
    expect(() =>
      decodeConversionReview(JSON.stringify({ ...review([]), request: { uid: 'u', desiredAPIVersion: 'x/v1' } })),
    ).toThrow('request.objects must be a list');
  });
});

describe('WebhookServer.conversion', () => {
  let server: WebhookServer;
  let dir: string;
  let ca: string;

  beforeAll(async () => {
    const authority = await createCA('ca');
    const pair = await issueCertificate(authority, {
      commonName: 'server',
      usage: 'server',
      ipAddresses: ['127.0.0.1'],
    });
    ca = authority.certPem;
    dir = await mkdtemp(join(tmpdir(), 'conversion-'));
    await writeFile(join(dir, 'tls.crt'), pair.certPem);
    await writeFile(join(dir, 'tls.key'), pair.keyPem);
    server = new WebhookServer({ host: '127.0.0.1', port: 0, certDir: dir });
    server.conversion('/convert', toV2);
    await server.start();
  });
  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const post = (body: string, method = 'POST', contentType = 'application/json') =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = request(
        `https://127.0.0.1:${server.port}/convert`,
        { method, ca, headers: { 'content-type': contentType } },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  it('serves conversions at its path', async () => {
    const ok = await post(JSON.stringify(review([widget('a')])));
    expect(ok.status).toBe(200);
    expect(ok.body.response).toMatchObject({
      uid: 'u-1',
      result: { status: 'Success' },
      convertedObjects: [{ apiVersion: 'example.com/v2', spec: { replicas: 2 } }],
    });
    const failed = await post(JSON.stringify(review([widget('bad')])));
    expect(failed.status).toBe(200);
    expect(failed.body.response.result).toEqual({ status: 'Failure', message: 'cannot convert bad' });
    expect(server.paths).toContain('/convert');
  });

  it('answers malformed requests with HTTP errors', async () => {
    expect((await post('{"kind":"AdmissionReview"}')).status).toBe(400);
    expect((await post('{}', 'PUT')).status).toBe(405);
    expect((await post('{}', 'POST', 'text/plain')).status).toBe(400);
  });
});
