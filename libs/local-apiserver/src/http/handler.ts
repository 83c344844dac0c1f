// The top-level request handler: authentication, then discovery, OpenAPI, health, metrics or a resource.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { Counter, Histogram, type Registry as MetricsRegistry } from 'prom-client';
import { ApiError } from '../api/errors.js';
import type { Registry } from '../registry/registry.js';
import type { UserInfo } from '../server/context.js';
import { ANONYMOUS, authenticate, type Authenticator } from './authn.js';
import { forbidden, pathVerb, requestVerb, type Attributes } from '../auth/attributes.js';
import type { AuthorizerChain } from '../auth/authorizer.js';
import { AGGREGATED_DISCOVERY_V2, aggregated, group, groupList, legacyVersions, resourceList, wantsAggregated } from './discovery.js';
import { sendError, sendJson, sendText } from './io.js';
import { handleResource, type ResourceHandlerDeps } from './resource-handler.js';
import { parseRoute, type Route } from './route.js';
import type { UpgradeHandler } from '../server/kubelet-proxy.js';

export interface OpenAPIProvider {
  v2(): unknown;
  v3Index(): unknown;
  /** The document of one group-version path (`api/v1`, `apis/apps/v1`), or undefined. */
  v3(path: string): unknown;
}

export interface HandlerDeps extends ResourceHandlerDeps {
  registry: Registry;
  authenticators: Authenticator[];
  anonymous: boolean;
  openapi: OpenAPIProvider;
  authorizer: AuthorizerChain;
  metrics: MetricsRegistry;
  serverAddress: () => string;
  ready: () => boolean;
  version: Record<string, string>;
  /** Connection upgrades (WebSocket exec/attach/portforward), keyed `resource/subresource`. */
  upgradeHandlers?: Map<string, UpgradeHandler>;
}

const PUBLIC_PATHS = new Set(['healthz', 'livez', 'readyz', 'version']);

export function createHandler(deps: HandlerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const requests = new Counter({
    name: 'apiserver_request_total',
    help: 'Counter of apiserver requests broken out for each verb, group, version, resource and HTTP response code.',
    labelNames: ['verb', 'group', 'version', 'resource', 'code'],
    registers: [deps.metrics],
  });
  const latency = new Histogram({
    name: 'apiserver_request_duration_seconds',
    help: 'Response latency distribution in seconds for each verb, group, version and resource.',
    labelNames: ['verb', 'group', 'version', 'resource'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
    registers: [deps.metrics],
  });

  return (req, res) => {
    const started = process.hrtime.bigint();
    const url = new URL(req.url ?? '/', 'https://local');
    const route = parseRoute(url.pathname);
    const labels = metricLabels(req, route);
    res.on('finish', () => {
      requests.inc({ ...labels, code: String(res.statusCode) });
      latency.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    serve(deps, route, url, req, res).catch((err) => sendError(res, err));
  };
}

/**
 * The server's `upgrade` listener: the same authentication and authorization as any request (streaming pod subresources
 * need `create`, as kube-apiserver requires for WebSocket upgrades since 1.31), then the subresource's upgrade handler.
 * Errors are written as an HTTP response with a Status body on the raw socket.
 */
export function createUpgradeHandler(deps: HandlerDeps): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'https://local');
    const route = parseRoute(url.pathname);
    upgrade(deps, route, url, req, socket, head).catch((err) => {
      const apiError = err instanceof ApiError ? err : new ApiError(500, 'InternalError', err instanceof Error ? err.message : String(err));
      const body = JSON.stringify(apiError.toStatus());
      if (socket.writable) {
        socket.end(
          `HTTP/1.1 ${apiError.code} ${STATUS_CODES[apiError.code] ?? 'Error'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
        );
      }
    });
  };
}

async function upgrade(deps: HandlerDeps, route: Route, url: URL, req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
  const handler = route.type === 'resource' ? deps.upgradeHandlers?.get(`${route.resource}/${route.subresource}`) : undefined;
  if (route.type !== 'resource' || route.group !== '' || !route.name || !handler) {
    throw new ApiError(400, 'BadRequest', 'this resource does not support connection upgrades');
  }
  const user = await authenticate(deps.authenticators, req);
  if (!user && !deps.anonymous) throw new ApiError(401, 'Unauthorized', 'Unauthorized');
  const attributes = requestAttributes(route, url, req, user ?? ANONYMOUS);
  if (attributes.kind === 'resource') attributes.resource.verb = 'create';
  const decision = await deps.authorizer.authorize(attributes);
  if (!decision.allowed) throw forbidden(attributes, decision.reason);
  await handler({ req, socket, head, namespace: route.namespace, name: route.name, subresource: route.subresource, query: url.searchParams });
}

async function serve(deps: HandlerDeps, route: Route, url: URL, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const firstSegment = url.pathname.split('/')[1] ?? '';
  let user: UserInfo | undefined = await authenticate(deps.authenticators, req);
  if (!user) {
    if (!deps.anonymous && !PUBLIC_PATHS.has(firstSegment)) {
      req.resume();
      throw new ApiError(401, 'Unauthorized', 'Unauthorized');
    }
    user = ANONYMOUS;
  }
  const attributes = requestAttributes(route, url, req, user);
  const decision = await deps.authorizer.authorize(attributes);
  if (!decision.allowed) {
    req.resume();
    throw forbidden(attributes, decision.reason);
  }
  switch (route.type) {
    case 'health': {
      const ok = route.check !== 'readyz' || deps.ready();
      return sendText(res, ok ? 200 : 500, ok ? 'ok' : 'not ready');
    }
    case 'version':
      return sendJson(res, 200, deps.version);
    case 'metrics':
      return sendText(res, 200, await deps.metrics.metrics(), deps.metrics.contentType);
    case 'root':
      return sendJson(res, 200, { paths: ['/api', '/api/v1', '/apis', '/healthz', '/livez', '/metrics', '/openapi/v2', '/openapi/v3', '/readyz', '/version'] });
    case 'openapi': {
      if (route.version === 'v2') return sendJson(res, 200, deps.openapi.v2());
      if (route.path === '') return sendJson(res, 200, deps.openapi.v3Index());
      const doc = deps.openapi.v3(route.path);
      if (!doc) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
      return sendJson(res, 200, doc);
    }
    case 'legacy-versions':
      if (wantsAggregated(req.headers.accept)) return sendJson(res, 200, aggregated(deps.registry, true), [], AGGREGATED_DISCOVERY_V2);
      return sendJson(res, 200, legacyVersions(deps.serverAddress()));
    case 'groups':
      if (wantsAggregated(req.headers.accept)) return sendJson(res, 200, aggregated(deps.registry, false), [], AGGREGATED_DISCOVERY_V2);
      return sendJson(res, 200, groupList(deps.registry));
    case 'group': {
      const g = group(deps.registry, route.group);
      if (!g) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
      return sendJson(res, 200, g);
    }
    case 'resource-list': {
      const list = resourceList(deps.registry, route.group, route.version);
      if (!list) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
      return sendJson(res, 200, list);
    }
    case 'resource':
      return handleResource(deps, route, req, res, url.searchParams, user);
    default:
      throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
  }
}

/** What the request asks, for the authorizers; a namespace's own requests count as in that namespace, as in kube. */
function requestAttributes(route: Route, url: URL, req: IncomingMessage, user: UserInfo): Attributes {
  const method = req.method ?? 'GET';
  if (route.type !== 'resource') return { user, kind: 'path', verb: pathVerb(method), path: url.pathname };
  const watch = url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1';
  const namespace = route.namespace || (route.group === '' && route.resource === 'namespaces' ? route.name : '');
  return {
    user,
    kind: 'resource',
    resource: {
      verb: requestVerb(method, route.name !== '', watch),
      namespace,
      group: route.group,
      version: route.version,
      resource: route.resource,
      subresource: route.subresource,
      name: route.name,
    },
  };
}

function metricLabels(req: IncomingMessage, route: Route) {
  if (route.type !== 'resource') return { verb: req.method ?? 'GET', group: '', version: '', resource: route.type };
  return { verb: req.method ?? 'GET', group: route.group, version: route.version, resource: route.resource };
}
