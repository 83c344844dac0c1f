// The ConversionReview checks of kube's webhook converter: uid, Success, object count, apiVersion/kind, metadata.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.js';
import type { KubeObject } from '../../storage/types.js';
import { validateCRDConversion } from '../../controllers/crd-conversion.js';
import { WebhookConverter, type ReviewPoster } from './converter.js';
import { conversionReview, convertedObjects, restoreConverted, reviewVersion } from './review.js';

const original = (name = 'w1', extra: KubeObject = {}): KubeObject => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: {
    name,
    namespace: 'default',
    uid: `uid-${name}`,
    resourceVersion: '7',
    generation: 2,
    labels: { a: '1' },
    annotations: { n: 'x' },
  },
  spec: { size: 3 },
  ...extra,
});

const answer = (uid: string, response: KubeObject, apiVersion = 'apiextensions.k8s.io/v1') => ({
  apiVersion,
  kind: 'ConversionReview',
  response: { uid, ...response },
});

describe('convertedObjects', () => {
  it('returns the converted objects of a Success answer', () => {
    const objects = [{ apiVersion: 'example.com/v2' }];
    expect(
      convertedObjects('v1', 'u', answer('u', { result: { status: 'Success' }, convertedObjects: objects })),
    ).toEqual(objects);
  });
  it('refuses another uid, a missing response and the wrong kind', () => {
    expect(() => convertedObjects('v1', 'u', answer('other', { result: { status: 'Success' } }))).toThrow(
      'expected response.uid="u", got "other"',
    );
    expect(() =>
      convertedObjects('v1', 'u', { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview' }),
    ).toThrow('no response provided');
    expect(() =>
      convertedObjects('v1', 'u', { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: {} }),
    ).toThrow(
      'expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got admission.k8s.io/v1, Kind=AdmissionReview',
    );
  });
  it('fails with the result message, or names the status', () => {
    expect(() => convertedObjects('v1', 'u', answer('u', { result: { status: 'Failure', message: 'nope' } }))).toThrow(
      /^nope$/,
    );
    expect(() => convertedObjects('v1', 'u', answer('u', { result: { status: 'Failure' } }))).toThrow(
      "response.result.status was 'Failure', not 'Success'",
    );
    expect(() => convertedObjects('v1', 'u', answer('u', {}))).toThrow("response.result.status was '', not 'Success'");
  });
  it('does not check kind or uid of v1beta1 answers', () => {
    expect(
      convertedObjects('v1beta1', 'u', { response: { uid: 'x', result: { status: 'Success' }, convertedObjects: [] } }),
    ).toEqual([]);
  });
});

describe('restoreConverted', () => {
  it('keeps the original metadata except labels and annotations', () => {
    const converted = {
      apiVersion: 'example.com/v2',
      kind: 'Widget',
      metadata: {
        name: 'w1',
        namespace: 'default',
        uid: 'uid-w1',
        resourceVersion: '99',
        generation: 9,
        labels: { b: '2' },
        finalizers: ['x'],
      },
      spec: { replicas: 3 },
    };
    expect(restoreConverted(original(), converted, 'example.com/v2')).toEqual({
      apiVersion: 'example.com/v2',
      kind: 'Widget',
      metadata: {
        name: 'w1',
        namespace: 'default',
        uid: 'uid-w1',
        resourceVersion: '7',
        generation: 2,
        labels: { b: '2' },
      },
      spec: { replicas: 3 },
    });
  });
  it('refuses another apiVersion, kind, name, namespace or uid', () => {
    const ok = {
      apiVersion: 'example.com/v2',
      kind: 'Widget',
      metadata: { name: 'w1', namespace: 'default', uid: 'uid-w1' },
    };
    expect(() => restoreConverted(original(), { ...ok, apiVersion: 'example.com/v1' }, 'example.com/v2')).toThrow(
      'invalid groupVersion (expected example.com/v2, received example.com/v1)',
    );
    expect(() => restoreConverted(original(), { ...ok, kind: 'Gadget' }, 'example.com/v2')).toThrow(
      'invalid kind (expected Widget, received Gadget)',
    );
    expect(() =>
      restoreConverted(original(), { ...ok, metadata: { ...ok.metadata, name: 'w2' } }, 'example.com/v2'),
    ).toThrow('must have the same name: w1 != w2');
    expect(() =>
      restoreConverted(original(), { ...ok, metadata: { ...ok.metadata, namespace: 'x' } }, 'example.com/v2'),
    ).toThrow('must have the same namespace');
    expect(() =>
      restoreConverted(original(), { ...ok, metadata: { ...ok.metadata, uid: 'u2' } }, 'example.com/v2'),
    ).toThrow('must have the same UID: uid-w1 != u2');
  });
  it('refuses labels that are not strings or not valid', () => {
    const ok = {
      apiVersion: 'example.com/v2',
      kind: 'Widget',
      metadata: { name: 'w1', namespace: 'default', uid: 'uid-w1' },
    };
    expect(() =>
      restoreConverted(original(), { ...ok, metadata: { ...ok.metadata, labels: { a: 1 } } }, 'example.com/v2'),
    ).toThrow('metadata.labels[a] must be a string');
    expect(() =>
      restoreConverted(
        original(),
        { ...ok, metadata: { ...ok.metadata, labels: { a: 'not valid!' } } },
        'example.com/v2',
      ),
    ).toThrow('metadata.labels');
  });
});

describe('WebhookConverter', () => {
  const v2 = (o: KubeObject) => ({ ...o, apiVersion: 'example.com/v2', spec: { replicas: o.spec.size } });
  const poster = (respond: (review: KubeObject) => KubeObject): { post: ReviewPoster; sent: KubeObject[] } => {
    const sent: KubeObject[] = [];
    return { sent, post: async (_config, review) => (sent.push(review), respond(review)) };
  };
  const success = (review: KubeObject) =>
    answer(review.request.uid, { result: { status: 'Success' }, convertedObjects: review.request.objects.map(v2) });

  it('sends only the objects not yet in the desired version, and fills them back in place', async () => {
    const { post, sent } = poster(success);
    const converter = new WebhookConverter({ clientConfig: {}, conversionReviewVersions: ['v9', 'v1'] }, post);
    const already = { ...original('w2'), apiVersion: 'example.com/v2' };
    const out = await converter.convert(
      [original('w1'), already, original('w3')],
      'example.com/v2',
      'example.com/v1, Kind=Widget',
      true,
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      request: { desiredAPIVersion: 'example.com/v2' },
    });
    expect(sent[0].request.objects.map((o: KubeObject) => o.metadata.name)).toEqual(['w1', 'w3']);
    expect(out.map((o) => [o.metadata.name, o.spec])).toEqual([
      ['w1', { replicas: 3 }],
      ['w2', { size: 3 }],
      ['w3', { replicas: 3 }],
    ]);
    expect(await converter.convert([already], 'example.com/v2', 'x')).toEqual([already]);
    expect(sent).toHaveLength(1);
  });

  it('fails as kube: 500 InternalError naming the kind', async () => {
    const fails = async (respond: (review: KubeObject) => KubeObject, list = false, versions = ['v1']) => {
      const converter = new WebhookConverter(
        { clientConfig: {}, conversionReviewVersions: versions },
        poster(respond).post,
      );
      const err = await converter
        .convert([original()], 'example.com/v2', 'example.com/v1, Kind=Widget', list)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).code).toBe(500);
      expect((err as ApiError).reason).toBe('InternalError');
      return (err as Error).message;
    };
    expect(await fails((r) => answer(r.request.uid, { result: { status: 'Failure', message: 'bad widget' } }))).toBe(
      'conversion webhook for example.com/v1, Kind=Widget failed: bad widget',
    );
    expect(await fails((r) => answer(`${r.request.uid}x`, { result: { status: 'Success' } }))).toMatch(
      /failed: expected response\.uid=/,
    );
    expect(await fails((r) => answer(r.request.uid, { result: { status: 'Success' }, convertedObjects: [] }))).toBe(
      'conversion webhook for example.com/v1, Kind=Widget returned 0 objects, expected 1',
    );
    expect(
      await fails((r) => answer(r.request.uid, { result: { status: 'Success' }, convertedObjects: [original()] })),
    ).toBe(
      'conversion webhook for example.com/v1, Kind=Widget returned invalid object at index 0: invalid groupVersion (expected example.com/v2, received example.com/v1)',
    );
    const renamed = (r: KubeObject) =>
      answer(r.request.uid, {
        result: { status: 'Success' },
        convertedObjects: [{ ...v2(original()), metadata: { name: 'other', namespace: 'default', uid: 'uid-w1' } }],
      });
    expect(await fails(renamed)).toBe(
      'conversion webhook for example.com/v1, Kind=Widget returned invalid object: must have the same name: w1 != other',
    );
    expect(await fails(renamed, true)).toBe(
      'conversion webhook for example.com/v1, Kind=Widget returned invalid converted object at index 0: must have the same name: w1 != other',
    );
    expect(await fails(success, false, ['v2'])).toBe(
      'conversion webhook for example.com/v1, Kind=Widget failed: no supported conversion review versions',
    );
    expect(
      await fails(() => {
        throw new Error('connection refused');
      }),
    ).toBe('conversion webhook for example.com/v1, Kind=Widget failed: connection refused');
  });

  it('builds reviews in the first supported version', () => {
    expect(reviewVersion(['v1beta1', 'v1'])).toBe('v1beta1');
    expect(reviewVersion(['v3'])).toBeUndefined();
    expect(conversionReview('v1', 'u', 'example.com/v2', [])).toEqual({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      request: { uid: 'u', desiredAPIVersion: 'example.com/v2', objects: [] },
    });
  });
});

describe('validateCRDConversion', () => {
  const crd = (conversion: KubeObject) => ({ spec: { conversion } });
  const fields = (conversion: KubeObject) =>
    validateCRDConversion(crd(conversion)).map((p) => `${p.field}: ${p.message}`);
  it('accepts None and a complete Webhook', () => {
    expect(fields({ strategy: 'None' })).toEqual([]);
    expect(
      fields({
        strategy: 'Webhook',
        webhook: { clientConfig: { url: 'https://hook.example.com/convert' }, conversionReviewVersions: ['v1'] },
      }),
    ).toEqual([]);
    expect(
      fields({
        strategy: 'Webhook',
        webhook: {
          clientConfig: { service: { namespace: 'ns', name: 'svc', path: '/convert', port: 9443 } },
          conversionReviewVersions: ['v1beta1'],
        },
      }),
    ).toEqual([]);
  });
  it('wants a webhook iff the strategy is Webhook, with kube field paths', () => {
    expect(fields({ strategy: 'Webhook' })).toEqual([
      'spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook',
      'spec.conversion.conversionReviewVersions: Required value',
    ]);
    expect(
      fields({ strategy: 'None', webhook: { clientConfig: { url: 'https://x' }, conversionReviewVersions: ['v1'] } }),
    ).toEqual([
      'spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook',
      'spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook',
    ]);
    expect(fields({ strategy: 'Magic' })).toEqual([
      'spec.conversion.strategy: Unsupported value: "Magic": supported values: "None", "Webhook"',
    ]);
  });
  it('checks the client config and the review versions', () => {
    expect(fields({ strategy: 'Webhook', webhook: { clientConfig: {}, conversionReviewVersions: ['v1'] } })).toEqual([
      'spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required',
    ]);
    expect(
      fields({
        strategy: 'Webhook',
        webhook: { clientConfig: { url: 'http://x/convert' }, conversionReviewVersions: ['v1'] },
      }),
    ).toEqual([
      `spec.conversion.webhookClientConfig.url: Invalid value: "http://x/convert": 'https' is the only allowed URL scheme`,
    ]);
    expect(
      fields({
        strategy: 'Webhook',
        webhook: { clientConfig: { service: { path: 'convert' } }, conversionReviewVersions: ['v2', 'v2'] },
      }),
    ).toEqual([
      'spec.conversion.webhookClientConfig.service.name: Required value: service name is required',
      'spec.conversion.webhookClientConfig.service.namespace: Required value: service namespace is required',
      `spec.conversion.webhookClientConfig.service.path: Invalid value: "convert": must start with a '/'`,
      'spec.conversion.conversionReviewVersions[1]: Duplicate value: "v2"',
      'spec.conversion.conversionReviewVersions: Invalid value: []string{"v2", "v2"}: must include at least one of v1, v1beta1',
    ]);
  });
});
