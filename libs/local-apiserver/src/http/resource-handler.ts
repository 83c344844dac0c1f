// The REST verbs on collections, objects and subresources, mapped onto the object service.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, errors } from '../api/errors.js';
import type { Registry } from '../registry/registry.js';
import type { ResourceDefinition } from '../registry/types.js';
import type { KubeObject } from '../storage/types.js';
import {
  fieldManagerFromUserAgent,
  type FieldValidation,
  type RequestContext,
  type UserInfo,
} from '../server/context.js';
import { parseYamlOrJson, type DeleteOptions, type ObjectService } from '../server/objects.js';
import type { PatchType } from '../server/patching.js';
import { readBody, readBodyBuffer, sendJson, sendJsonList } from './io.js';
import { decodeProtobufObject, PROTOBUF_MEDIA_TYPE } from './protobuf.js';
import type { Route } from './route.js';
import type { ReviewHandler } from '../auth/reviews.js';
import { apiVersionOf } from '../server/keys.js';
import { partialMetadata, partialMetadataList, requestedView, toTable, type IncludeObject } from './table.js';
import { serveWatch } from './watch-handler.js';
import { validateListOptions } from './list-options.js';

type ResourceRoute = Extract<Route, { type: 'resource' }>;

/** Subresources handled as "a PUT/PATCH that only changes part of the object". */
const WRITE_SUBRESOURCES = new Set(['', 'status', 'scale', 'approval', 'finalize', 'ephemeralcontainers', 'resize']);

const PATCH_TYPES: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

export interface ResourceHandlerDeps {
  registry: Registry;
  objects: ObjectService;
  /** Extra subresource handlers (pods/binding, serviceaccounts/token, pods/log, ...), keyed `resource/subresource`. */
  subresourceHandlers?: Map<string, SubresourceHandler>;
  /** Create-only review kinds answered instead of stored, by `group/resource`. */
  reviews?: Map<string, ReviewHandler>;
}

export type SubresourceHandler = (args: {
  req: IncomingMessage;
  res: ServerResponse;
  definition: ResourceDefinition;
  route: ResourceRoute;
  query: URLSearchParams;
  ctx: RequestContext;
}) => Promise<void>;

export async function handleResource(
  deps: ResourceHandlerDeps,
  route: ResourceRoute,
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  user: UserInfo,
): Promise<void> {
  const def = deps.registry.get(route.group, route.version, route.resource);
  if (!def || !def.served || (route.namespace && !def.namespaced)) {
    throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
  }
  const ctx = requestContext(req, query, user);
  const review = deps.reviews?.get(`${def.group}/${def.resource}`);
  if (review && req.method === 'POST' && !route.subresource) {
    const body = decodeBody(req, def, await readBodyBuffer(req));
    return sendJson(
      res,
      201,
      await review({ ...body, apiVersion: apiVersionOf(def), kind: def.kind }, user),
      ctx.warnings,
    );
  }
  const extra = deps.subresourceHandlers?.get(`${def.resource}/${route.subresource}`);
  if (route.subresource && extra) return extra({ req, res, definition: def, route, query, ctx });
  if (route.subresource && !WRITE_SUBRESOURCES.has(route.subresource)) {
    throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
  }
  if (route.subresource === 'scale' && !def.subresources.scale)
    throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
  if (route.subresource === 'status' && !def.subresources.status)
    throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');

  const { objects } = deps;
  const ns = route.namespace;
  const method = req.method ?? 'GET';
  const listOptions = {
    labelSelector: query.get('labelSelector') ?? undefined,
    fieldSelector: query.get('fieldSelector') ?? undefined,
    limit: query.has('limit') ? Number(query.get('limit')) : undefined,
    continue: query.get('continue') ?? undefined,
    resourceVersion: query.get('resourceVersion') ?? undefined,
    resourceVersionMatch: query.get('resourceVersionMatch') ?? undefined,
  };

  if (method === 'GET' && isWatch(query)) {
    validateListOptions(query, true);
    if (route.name) {
      listOptions.fieldSelector = [listOptions.fieldSelector, `metadata.name=${route.name}`].filter(Boolean).join(',');
    }
    return serveWatch({
      storage: objects.storage,
      definition: def,
      namespace: ns,
      req,
      res,
      query,
      filter: objects.listFilter(def, listOptions),
    });
  }
  if (!verbAllowed(def, method, route)) {
    throw errors.methodNotAllowed(`the server does not allow this method on the requested resource`);
  }
  switch (method) {
    case 'GET': {
      if (route.name) {
        const object = await objects.get(
          def,
          ns,
          route.name,
          route.subresource,
          query.get('resourceVersion') ?? undefined,
        );
        return respondObject(req, res, def, object, 200, ctx);
      }
      validateListOptions(query, false);
      const list = await objects.list(def, ns, listOptions);
      return respondList(req, res, def, list, query);
    }
    case 'POST': {
      if (route.name) throw errors.methodNotAllowed('POST is not allowed on an object; use PUT or PATCH');
      const body = decodeBody(req, def, await readBodyBuffer(req));
      return respondObject(req, res, def, await objects.create(def, ns, body, ctx), 201, ctx);
    }
    case 'PUT': {
      const body = decodeBody(req, def, await readBodyBuffer(req));
      return respondObject(
        req,
        res,
        def,
        await objects.update(def, ns, route.name, body, ctx, route.subresource),
        200,
        ctx,
      );
    }
    case 'PATCH': {
      const type = PATCH_TYPES[(req.headers['content-type'] ?? '').split(';')[0].trim()];
      if (!type) throw errors.unsupportedMediaType(req.headers['content-type'] ?? '');
      if (type === 'strategic' && def.custom)
        throw errors.unsupportedMediaType('application/strategic-merge-patch+json');
      if (type === 'apply' && !query.get('fieldManager')) {
        throw errors.badRequest('PATCH, application/apply-patch+yaml requests require a fieldManager query parameter');
      }
      const body = await readBody(req);
      const force = query.get('force') === 'true';
      const result = await objects.patch(def, ns, route.name, type, body, ctx, {
        subresource: route.subresource,
        force,
      });
      return respondObject(req, res, def, result, 200, ctx);
    }
    case 'DELETE': {
      const options = await deleteOptions(req, query);
      if (!route.name) {
        validateListOptions(query, false);
        const list = await objects.deleteCollection(def, ns, listOptions, options, ctx);
        return respondList(req, res, def, list, query);
      }
      const { object } = await objects.delete(def, ns, route.name, options, ctx);
      return respondObject(req, res, def, object, 200, ctx);
    }
    default:
      throw errors.methodNotAllowed(`method ${method} is not supported`);
  }
}

function isWatch(query: URLSearchParams): boolean {
  const w = query.get('watch');
  return w === 'true' || w === '1';
}

function verbAllowed(def: ResourceDefinition, method: string, route: ResourceRoute): boolean {
  if (route.subresource) return true;
  const verb =
    method === 'GET'
      ? route.name
        ? 'get'
        : 'list'
      : method === 'POST'
        ? 'create'
        : method === 'PUT'
          ? 'update'
          : method === 'PATCH'
            ? 'patch'
            : route.name
              ? 'delete'
              : 'deletecollection';
  return def.verbs.includes(verb);
}

function requestContext(req: IncomingMessage, query: URLSearchParams, user: UserInfo): RequestContext {
  const dryRun = query.getAll('dryRun');
  if (dryRun.some((d) => d !== 'All'))
    throw errors.badRequest(`Invalid dryRun value: ${JSON.stringify(dryRun)}: supported values: "All"`);
  const validation = query.get('fieldValidation') ?? 'Warn';
  if (!['Strict', 'Warn', 'Ignore'].includes(validation)) {
    throw errors.badRequest(
      `fieldValidation must be one of "Ignore", "Warn", or "Strict", got ${JSON.stringify(validation)}`,
    );
  }
  return {
    user,
    dryRun: dryRun.length > 0,
    fieldManager: query.get('fieldManager') ?? fieldManagerFromUserAgent(req.headers['user-agent']),
    fieldValidation: validation as FieldValidation,
    warnings: [],
  };
}

async function deleteOptions(req: IncomingMessage, query: URLSearchParams): Promise<DeleteOptions> {
  const buffer = await readBodyBuffer(req);
  const body: KubeObject =
    mediaType(req) === PROTOBUF_MEDIA_TYPE && buffer.length > 0
      ? decodeProtobufObject(buffer, { apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions' })
      : buffer.toString('utf8').trim()
        ? parseYamlOrJson(buffer.toString('utf8'))
        : {};
  const options: DeleteOptions = {
    propagationPolicy: body.propagationPolicy ?? query.get('propagationPolicy') ?? undefined,
    orphanDependents:
      body.orphanDependents ?? (query.has('orphanDependents') ? query.get('orphanDependents') === 'true' : undefined),
    gracePeriodSeconds:
      body.gracePeriodSeconds ??
      (query.has('gracePeriodSeconds') ? Number(query.get('gracePeriodSeconds')) : undefined),
    preconditions: body.preconditions,
  };
  if (options.propagationPolicy && !['Orphan', 'Background', 'Foreground'].includes(options.propagationPolicy)) {
    throw errors.badRequest(
      `propagationPolicy: Unsupported value: "${options.propagationPolicy}": supported values: "Foreground", "Background", "Orphan"`,
    );
  }
  return options;
}

function respondObject(
  req: IncomingMessage,
  res: ServerResponse,
  def: ResourceDefinition,
  object: KubeObject,
  status: number,
  ctx: RequestContext,
): void {
  const view = requestedView(req.headers.accept);
  if (view === 'Table' && object.kind === def.kind) {
    const query = new URL(req.url ?? '/', 'http://x').searchParams;
    return sendJson(
      res,
      status,
      toTable(def, [object], { resourceVersion: object.metadata?.resourceVersion }, includeObject(query)),
      ctx.warnings,
    );
  }
  if (view === 'PartialObjectMetadata' && object.kind === def.kind)
    return sendJson(res, status, partialMetadata(object), ctx.warnings);
  sendJson(res, status, object, ctx.warnings);
}

function respondList(
  req: IncomingMessage,
  res: ServerResponse,
  def: ResourceDefinition,
  list: KubeObject,
  query: URLSearchParams,
): void {
  const view = requestedView(req.headers.accept);
  if (view === 'Table') return sendJson(res, 200, toTable(def, list.items, list.metadata, includeObject(query)));
  if (view === 'PartialObjectMetadata') return sendJson(res, 200, partialMetadataList(list));
  sendJsonList(res, 200, list);
}

export function includeObject(query: URLSearchParams): IncludeObject {
  const v = query.get('includeObject');
  return v === 'None' || v === 'Object' ? v : 'Metadata';
}

function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? 'application/json').split(';')[0].trim().toLowerCase();
}

/**
 * JSON or YAML bodies, and kube protobuf (what client-go's typed clients send, with no fallback to JSON):
 * decoded with the vendored Kubernetes protos into the JSON object form. Custom resources have no
 * protobuf form, so like kube-apiserver they (and kinds we have no proto for) get 415.
 */
export function decodeBody(req: IncomingMessage, def: ResourceDefinition, body: Buffer): KubeObject {
  const type = mediaType(req);
  if (type === PROTOBUF_MEDIA_TYPE && !def.custom) {
    return decodeProtobufObject(body, {
      apiVersion: def.group ? `${def.group}/${def.version}` : def.version,
      kind: def.kind,
    });
  }
  if (type !== 'application/json' && type !== 'application/yaml' && type !== '*/*') {
    throw new ApiError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml`,
    );
  }
  return parseYamlOrJson(body.toString('utf8'));
}
