// CRD conversion webhooks (controller-runtime's conversion.Webhook, simplified): the API server POSTs a
// ConversionReview (apiextensions.k8s.io/v1, or v1beta1) with `request.objects` and `request.desiredAPIVersion`; the
// handler converts each object with the given function and answers `result.status: Success` with the converted
// objects, or `Failure` with the error's message. Malformed requests get HTTP 400, as controller-runtime answers them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@gardener-ts/logging';
import type { KubernetesObject } from '../client/types.js';

/** A custom resource as a conversion webhook sees it: any fields besides apiVersion, kind and metadata. */
export type ConvertibleObject = KubernetesObject & { [field: string]: any };

/** Converts one object to `desiredAPIVersion` (e.g. `example.com/v2`); throwing fails the whole review. */
export type ConvertFunction = (
  object: ConvertibleObject,
  desiredAPIVersion: string,
) => ConvertibleObject | Promise<ConvertibleObject>;

export interface ConversionRequest {
  uid: string;
  desiredAPIVersion: string;
  objects: ConvertibleObject[];
}

export interface ConversionResponse {
  uid: string;
  convertedObjects: ConvertibleObject[];
  result: { status: 'Success' | 'Failure'; message?: string };
}

export interface ConversionReview {
  apiVersion: 'apiextensions.k8s.io/v1' | 'apiextensions.k8s.io/v1beta1';
  kind: 'ConversionReview';
  request?: ConversionRequest;
  response?: ConversionResponse;
}

const REVIEW_VERSIONS = ['apiextensions.k8s.io/v1', 'apiextensions.k8s.io/v1beta1'];

export class MalformedConversionReviewError extends Error {}

/** Parses and checks a ConversionReview request body. */
export function decodeConversionReview(body: string): ConversionReview & { request: ConversionRequest } {
  let review: any;
  try {
    review = JSON.parse(body);
  } catch (err) {
    throw new MalformedConversionReviewError(`the body is not JSON: ${(err as Error).message}`);
  }
  if (typeof review !== 'object' || review === null || Array.isArray(review))
    throw new MalformedConversionReviewError('the body is not an object');
  if (review.kind !== 'ConversionReview' || !REVIEW_VERSIONS.includes(review.apiVersion)) {
    throw new MalformedConversionReviewError(
      `expected apiextensions.k8s.io/v1 ConversionReview, got ${review.apiVersion ?? ''}, Kind=${review.kind ?? ''}`,
    );
  }
  const request = review.request;
  if (typeof request !== 'object' || request === null)
    throw new MalformedConversionReviewError('conversion request is empty');
  if (typeof request.uid !== 'string' || request.uid === '')
    throw new MalformedConversionReviewError('request.uid is required');
  if (typeof request.desiredAPIVersion !== 'string' || request.desiredAPIVersion === '')
    throw new MalformedConversionReviewError('request.desiredAPIVersion is required');
  if (!Array.isArray(request.objects)) throw new MalformedConversionReviewError('request.objects must be a list');
  return review;
}

/** Answers one review: every object converted (Success), or none with the first error's message (Failure). */
export async function convertReview(
  review: ConversionReview & { request: ConversionRequest },
  convert: ConvertFunction,
): Promise<ConversionReview> {
  const { uid, desiredAPIVersion, objects } = review.request;
  const answer = (response: Omit<ConversionResponse, 'uid'>): ConversionReview => ({
    apiVersion: review.apiVersion,
    kind: 'ConversionReview',
    response: { uid, ...response },
  });
  try {
    const converted: ConvertibleObject[] = [];
    for (const object of objects) {
      const out = await convert(structuredClone(object), desiredAPIVersion);
      if (typeof out !== 'object' || out === null)
        throw new Error(`converting ${object.metadata?.name ?? ''} returned no object`);
      converted.push({ ...out, apiVersion: out.apiVersion ?? desiredAPIVersion, kind: out.kind ?? object.kind });
    }
    return answer({ convertedObjects: converted, result: { status: 'Success' } });
  } catch (err) {
    return answer({
      convertedObjects: [],
      result: { status: 'Failure', message: (err as Error)?.message ?? String(err) },
    });
  }
}

/** The HTTP handler for `WebhookServer.handle` (what `WebhookServer.conversion(path, convert)` registers). */
export function conversionHandler(convert: ConvertFunction, options: { maxBodyBytes?: number; log?: Logger } = {}) {
  const limit = options.maxBodyBytes ?? 7 * 1024 * 1024;
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const reply = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };
    if (req.method !== 'POST')
      return reply(405, { error: `method ${req.method} not allowed: conversion webhooks accept POST` });
    const contentType = req.headers['content-type'] ?? '';
    if (!contentType.startsWith('application/json'))
      return reply(400, { error: `contentType=${contentType}, expected application/json` });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) return reply(413, { error: `request body larger than ${limit} bytes` });
      chunks.push(chunk);
    }
    let review: ConversionReview & { request: ConversionRequest };
    try {
      review = decodeConversionReview(Buffer.concat(chunks).toString('utf8'));
    } catch (err) {
      options.log?.info({ err: (err as Error).message }, 'Rejected malformed ConversionReview');
      return reply(400, { error: `malformed ConversionReview: ${(err as Error).message}` });
    }
    const answer = await convertReview(review, convert);
    options.log?.debug(
      {
        uid: review.request.uid,
        desiredAPIVersion: review.request.desiredAPIVersion,
        objects: review.request.objects.length,
        result: answer.response?.result.status,
      },
      'Conversion request handled',
    );
    reply(200, answer);
  };
}
