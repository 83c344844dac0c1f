// CRD version conversion. Strategy None only relabels apiVersion; strategy Webhook POSTs a ConversionReview to the
// CRD's conversion webhook (url, or a Service resolved and verified as admission webhooks are) whenever an object's
// version differs from the one wanted — to the storage version before writing, to the requested version on reads,
// lists (one review for all items that need it) and watch events — as kube's apiextensions webhook converter.
// Built-in resources served in several group-versions (Events, HPAs) convert with kube's conversions (`builtin.ts`).
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../api/errors.js';
import { postJson, resolveService, type Target } from '../../admission/webhooks.js';
import type { ResourceDefinition } from '../../registry/types.js';
import type { KubeObject, Storage } from '../../storage/types.js';
import { apiVersionOf, storageApiVersion } from '../keys.js';
import { convertBuiltin } from './builtin.js';
import {
  conversionReview,
  convertedObjects,
  MetadataError,
  restoreConverted,
  reviewVersion,
  TypeMetaError,
} from './review.js';

/** kube's timeout for conversion webhook calls. */
const TIMEOUT_MS = 30_000;

export interface WebhookConversion {
  /** `spec.conversion.webhook.clientConfig`: url, or service {namespace, name, path, port}, and caBundle. */
  clientConfig: KubeObject;
  conversionReviewVersions: string[];
}

/** Posts a review to a client config; replaceable in tests. */
export type ReviewPoster = (clientConfig: KubeObject, review: KubeObject) => Promise<KubeObject>;

export class WebhookConverter {
  constructor(
    private readonly webhook: WebhookConversion,
    private readonly post: ReviewPoster,
  ) {}

  /**
   * Converts the objects to `desiredAPIVersion`; those already in it are not sent. Throws kube's 500 for the
   * object kind `gvk` (`example.com/v1, Kind=Widget`, the version the objects come from).
   */
  async convert(objects: KubeObject[], desiredAPIVersion: string, gvk: string, list = false): Promise<KubeObject[]> {
    const toSend = objects.filter((o) => o.apiVersion !== desiredAPIVersion);
    if (toSend.length === 0) return objects;
    const fail = (message: string) => new ApiError(500, 'InternalError', `conversion webhook for ${gvk} ${message}`);
    const version = reviewVersion(this.webhook.conversionReviewVersions);
    if (!version) throw fail('failed: no supported conversion review versions');
    const uid = randomUUID();
    let converted: KubeObject[];
    try {
      converted = convertedObjects(
        version,
        uid,
        await this.post(this.webhook.clientConfig, conversionReview(version, uid, desiredAPIVersion, toSend)),
      );
    } catch (err) {
      throw fail(`failed: ${(err as Error).message}`);
    }
    if (converted.length !== toSend.length)
      throw fail(`returned ${converted.length} objects, expected ${toSend.length}`);
    const single = !list;
    let index = 0;
    return objects.map((original) => {
      if (original.apiVersion === desiredAPIVersion) return original;
      const at = index++;
      try {
        return restoreConverted(original, converted[at], desiredAPIVersion);
      } catch (err) {
        const message = (err as Error).message;
        if (err instanceof MetadataError)
          throw fail(
            single
              ? `returned invalid metadata: ${message}`
              : `returned invalid metadata in object at index ${at}: ${message}`,
          );
        if (!single) throw fail(`returned invalid converted object at index ${at}: ${message}`);
        throw fail(
          err instanceof TypeMetaError
            ? `returned invalid object at index 0: ${message}`
            : `returned invalid object: ${message}`,
        );
      }
    });
  }
}

/** The poster used by the server: url or Service client config over HTTPS, verified with caBundle. */
export function httpsPoster(storage: Storage): ReviewPoster {
  return async (clientConfig, review) => {
    const target: Target = clientConfig.url
      ? { url: new URL(clientConfig.url) }
      : await resolveService(storage, { port: 443, ...clientConfig.service });
    return postJson(target, clientConfig, TIMEOUT_MS, review, 'ConversionReview');
  };
}

/** The webhook conversion of a CRD, when its strategy is Webhook. */
export function webhookConversionOf(crd: KubeObject): WebhookConversion | undefined {
  const conversion = crd.spec?.conversion;
  if (conversion?.strategy !== 'Webhook' || !conversion.webhook?.clientConfig) return undefined;
  return {
    clientConfig: conversion.webhook.clientConfig,
    conversionReviewVersions: conversion.webhook.conversionReviewVersions ?? [],
  };
}

// The converters of the served CRD versions, attached to their resource definitions by the CRD controller.
const converters = new WeakMap<ResourceDefinition, WebhookConverter>();

export function attachConverter(defs: ResourceDefinition[], converter: WebhookConverter | undefined): void {
  for (const def of defs) {
    if (converter) converters.set(def, converter);
    else converters.delete(def);
  }
}

/** Whether objects of this definition convert through a webhook (watches then deliver asynchronously). */
export function hasWebhookConversion(def: ResourceDefinition): boolean {
  return converters.has(def);
}

function gvkOf(def: ResourceDefinition, object: KubeObject): string {
  return `${object.apiVersion ?? apiVersionOf({ group: def.group, version: def.storageVersion })}, Kind=${object.kind ?? def.kind}`;
}

/** Without a webhook: built-ins convert with kube's conversions, custom resources (strategy None) only relabel. */
function convertSync(def: ResourceDefinition, object: KubeObject, apiVersion: string): KubeObject {
  if (object.apiVersion === apiVersion) return object;
  return def.custom ? { ...object, apiVersion } : convertBuiltin(object, apiVersion);
}

/** A stored object in the version of `def`, for definitions without a conversion webhook (watch events). */
export function toRequestedVersionSync(def: ResourceDefinition, object: KubeObject): KubeObject {
  return convertSync(def, object, apiVersionOf(def));
}

async function convertAll(
  def: ResourceDefinition,
  objects: KubeObject[],
  apiVersion: string,
  list = false,
): Promise<KubeObject[]> {
  const converter = converters.get(def);
  if (!converter || objects.length === 0) return objects.map((o) => convertSync(def, o, apiVersion));
  const from = objects.find((o) => o.apiVersion !== apiVersion);
  if (!from) return objects;
  return converter.convert(objects, apiVersion, gvkOf(def, from), list);
}

/** An object in the version of `def` (the requested version). */
export async function toRequestedVersion(def: ResourceDefinition, object: KubeObject): Promise<KubeObject> {
  return (await convertAll(def, [object], apiVersionOf(def)))[0];
}

/** List items in the version of `def`, converted by one review. */
export async function itemsToRequestedVersion(def: ResourceDefinition, objects: KubeObject[]): Promise<KubeObject[]> {
  return convertAll(def, objects, apiVersionOf(def), true);
}

/** An object in the storage version of its resource, as it is written. */
export async function toStorageVersion(def: ResourceDefinition, object: KubeObject): Promise<KubeObject> {
  return (await convertAll(def, [object], storageApiVersion(def)))[0];
}
