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
import { impersonate } from '../auth/impersonation.js';
import {
  AGGREGATED_DISCOVERY_V2,
  aggregated,
  group,
  groupList,
  legacyVersions,
  resourceList,
  wantsAggregated,
} from './discovery.js';
import { sendError, sendJson, sendText } from './io.js';
import { handleResource, type ResourceHandlerDeps } from './resource-handler.js';
import { parseRoute, type Route } from './route.js';
import type { UpgradeHandler } from '../server/kubelet-proxy.js';
import { Auditor, type RequestAudit } from '../audit/index.js';

export interface OpenAPIProvider {
  v2(): unknown;
  /** The v2 document as gnostic's `openapi.v2.Document` protobuf (what kubectl's client-side validation reads). */
  v2Protobuf(): Uint8Array;
  /** The v2 document's entity tag (both representations share it, like kube-apiserver's). */
  v2ETag(): string;
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
  /** Audit logging; without it requests still get their `Audit-Id`. */
  audit?: Auditor;
}

/** Audit IDs only, for servers without audit logging. */
const NO_AUDIT = new Auditor();

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
    const url = requestUrl(req.url);
    const route = cachedRoute(url.pathname);
    const labels = metricLabels(req, route);
    res.on('finish', () => {
      requests.inc({ ...labels, code: String(res.statusCode) });
      latency.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    const audit = (deps.audit ?? NO_AUDIT).begin(req, res);
    serve(deps, route, url, req, res, audit).catch((err) => {
      audit.failed(err);
      sendError(res, err);
    });
  };
}

/** The parts of a request URL the handlers read. */
export interface RequestUrl {
  readonly pathname: string;
  readonly searchParams: URLSearchParams;
}

/**
 * Paths made only of characters WHATWG URL parsing leaves alone (no percent-encoding, no dot segments, no
 * backslashes): for these `new URL(path).pathname` is the path itself, so it need not be parsed.
 */
const PLAIN_PATH = /^\/[A-Za-z0-9\-_.~:@!$&'()*+,;=/]*$/;
/** A `.` or `..` segment, which URL parsing resolves. */
const DOT_SEGMENT = /\/\.\.?(\/|$)/;
const PLAIN_QUERY = /^[\x21-\x7e]*$/;
/** Shared by every request without a query: nobody changes a request's parameters. */
const NO_QUERY = new URLSearchParams();

/** `new URL(raw, 'https://local')` without the full URL parser for plain paths (the hot path). */
export function requestUrl(raw: string | undefined): RequestUrl {
  const target = raw ?? '/';
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  if (target.indexOf('#') < 0 && PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path)) {
    if (q < 0) return { pathname: path, searchParams: NO_QUERY };
    const search = target.slice(q + 1);
    // Printable ASCII only: URL's percent-encoding of the rest would decode back to the same parameters.
    if (PLAIN_QUERY.test(search)) return { pathname: path, searchParams: new URLSearchParams(search) };
  }
  return new URL(target, 'https://local');
}

/** Parsed routes by path; a route is never changed after parsing, so equal paths share one. Bounded. */
const routes = new Map<string, Route>();
const MAX_CACHED_ROUTES = 4096;

function cachedRoute(pathname: string): Route {
  let route = routes.get(pathname);
  if (route === undefined) {
    route = Object.freeze(parseRoute(pathname));
    if (routes.size >= MAX_CACHED_ROUTES) routes.clear();
    routes.set(pathname, route);
  }
  return route;
}

/**
 * The server's `upgrade` listener: the same authentication and authorization as any request (streaming pod subresources
 * need `create`, as kube-apiserver requires for WebSocket upgrades since 1.31), then the subresource's upgrade handler.
 * Errors are written as an HTTP response with a Status body on the raw socket.
 */
export function createUpgradeHandler(deps: HandlerDeps): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    const url = requestUrl(req.url);
    const route = parseRoute(url.pathname);
    const audit = (deps.audit ?? NO_AUDIT).begin(req);
    upgrade(deps, route, url, req, socket, head, audit).catch((err) => {
      const apiError =
        err instanceof ApiError
          ? err
          : new ApiError(500, 'InternalError', err instanceof Error ? err.message : String(err));
      audit.failed(err);
      audit.upgradeFailed(apiError);
      const body = JSON.stringify(apiError.toStatus());
      if (socket.writable) {
        socket.end(
          `HTTP/1.1 ${apiError.code} ${STATUS_CODES[apiError.code] ?? 'Error'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
        );
      }
    });
  };
}

async function upgrade(
  deps: HandlerDeps,
  route: Route,
  url: RequestUrl,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  audit: RequestAudit,
): Promise<void> {
  const handler =
    route.type === 'resource' ? deps.upgradeHandlers?.get(`${route.resource}/${route.subresource}`) : undefined;
  if (route.type !== 'resource' || route.group !== '' || !route.name || !handler) {
    throw new ApiError(400, 'BadRequest', 'this resource does not support connection upgrades');
  }
  const requester = await authenticate(deps.authenticators, req);
  if (!requester && !deps.anonymous) {
    audit.unauthenticated(requestAttributes(route, url, req, ANONYMOUS));
    throw new ApiError(401, 'Unauthorized', 'Unauthorized');
  }
  audit.received(requestAttributes(route, url, req, requester ?? ANONYMOUS));
  const acting = await impersonate(req, requester ?? ANONYMOUS, deps.authorizer);
  if ('internalError' in acting) throw new ApiError(500, 'InternalError', acting.internalError);
  if (acting.user !== (requester ?? ANONYMOUS)) audit.impersonated(acting.user);
  const attributes = requestAttributes(route, url, req, acting.user);
  if (attributes.kind === 'resource') attributes.resource.verb = 'create';
  const decision = await deps.authorizer.authorize(attributes);
  audit.authorized(decision);
  if (!decision.allowed) throw forbidden(attributes, decision.reason);
  audit.upgraded(socket);
  await handler({
    req,
    socket,
    head,
    namespace: route.namespace,
    name: route.name,
    subresource: route.subresource,
    query: url.searchParams,
  });
}

async function serve(
  deps: HandlerDeps,
  route: Route,
  url: RequestUrl,
  req: IncomingMessage,
  res: ServerResponse,
  audit: RequestAudit,
): Promise<void> {
  const slash = url.pathname.indexOf('/', 1);
  const firstSegment = url.pathname.slice(1, slash < 0 ? undefined : slash);
  let user: UserInfo | undefined = await authenticate(deps.authenticators, req);
  if (!user) {
    if (!deps.anonymous && !PUBLIC_PATHS.has(firstSegment)) {
      req.resume();
      audit.unauthenticated(requestAttributes(route, url, req, ANONYMOUS));
      throw new ApiError(401, 'Unauthorized', 'Unauthorized');
    }
    user = ANONYMOUS;
  }
  // Audit sees the authenticated user (kube's audit filter runs before impersonation); authorization the acting one.
  const attributes = requestAttributes(route, url, req, user);
  audit.received(attributes);
  // Impersonation headers switch the user after authentication and before authorization, as in kube.
  const acting = await impersonate(req, user, deps.authorizer).catch((err) => {
    req.resume();
    throw err;
  });
  if ('internalError' in acting) {
    req.resume();
    return sendText(res, 500, `${acting.internalError}\n`);
  }
  if (acting.user !== user) audit.impersonated(acting.user);
  user = acting.user;
  attributes.user = user;
  const decision = await deps.authorizer.authorize(attributes);
  audit.authorized(decision);
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
      return sendJson(res, 200, {
        paths: [
          '/api',
          '/api/v1',
          '/apis',
          '/healthz',
          '/livez',
          '/metrics',
          '/openapi/v2',
          '/openapi/v3',
          '/readyz',
          '/version',
        ],
      });
    case 'openapi': {
      if (route.version === 'v2') return sendOpenAPIV2(req, res, deps.openapi);
      if (route.path === '') return sendJson(res, 200, deps.openapi.v3Index());
      const doc = deps.openapi.v3(route.path);
      if (!doc) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
      return sendJson(res, 200, doc);
    }
    case 'legacy-versions':
      if (wantsAggregated(req.headers.accept))
        return sendJson(res, 200, aggregated(deps.registry, true), [], AGGREGATED_DISCOVERY_V2);
      return sendJson(res, 200, legacyVersions(deps.serverAddress()));
    case 'groups':
      if (wantsAggregated(req.headers.accept))
        return sendJson(res, 200, aggregated(deps.registry, false), [], AGGREGATED_DISCOVERY_V2);
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
function requestAttributes(route: Route, url: RequestUrl, req: IncomingMessage, user: UserInfo): Attributes {
  const method = req.method ?? 'GET';
  if (route.type !== 'resource') return { user, kind: 'path', verb: pathVerb(method), path: url.pathname };
  const watch = url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1';
  const namespace = route.namespace || (route.group === '' && route.resource === 'namespaces' ? route.name : '');
  const verb = requestVerb(method, route.name !== '', watch);
  // Field selectors of lists and watches reach the authorizers (kube's AuthorizeWithSelectors; the Node authorizer).
  const fieldSelector = (verb === 'list' || verb === 'watch') && url.searchParams.get('fieldSelector');
  // A list or watch of one object names it (kube's RequestInfoFactory: `metadata.name` of an exact-match field
  // selector), so RBAC rules with resourceNames apply to it.
  const selectedName = fieldSelector
    ? fieldSelector
        .split(',')
        .map((term) => /^metadata\.name==?(.*)$/.exec(term.trim())?.[1])
        .find((name) => name !== undefined)
    : undefined;
  return {
    user,
    kind: 'resource',
    resource: {
      verb,
      namespace,
      group: route.group,
      version: route.version,
      resource: route.resource,
      subresource: route.subresource,
      name: route.name || (selectedName ?? ''),
      ...(fieldSelector ? { fieldSelector } : {}),
    },
  };
}

function metricLabels(req: IncomingMessage, route: Route) {
  if (route.type !== 'resource') return { verb: req.method ?? 'GET', group: '', version: '', resource: route.type };
  return { verb: req.method ?? 'GET', group: route.group, version: route.version, resource: route.resource };
}

const OPENAPI_V2_PROTOBUF = 'com.github.proto-openapi.spec.v2.v1.0+protobuf';
/** The media subtypes kube-openapi's handler serves /openapi/v2 as, in its order (the `@` form is deprecated). */
const OPENAPI_V2_SUBTYPES = ['json', 'com.github.proto-openapi.spec.v2@v1.0+protobuf', OPENAPI_V2_PROTOBUF];

/** The Accept header's media ranges, most preferred first (by q, then in order), without their parameters. */
function acceptClauses(accept: string | undefined): { type: string; subtype: string }[] {
  const clauses = (accept || '*/*').split(',').flatMap((part, index) => {
    const [range = '', ...params] = part.split(';').map((p) => p.trim());
    const slash = range.indexOf('/');
    if (slash <= 0) return [];
    const q = params.map((p) => /^q=([\d.]+)$/i.exec(p)).find((m) => m);
    return [
      {
        type: range.slice(0, slash).toLowerCase(),
        subtype: range.slice(slash + 1).toLowerCase(),
        q: q ? Number(q[1]) : 1,
        index,
      },
    ];
  });
  return clauses.filter((c) => c.q > 0).sort((a, b) => b.q - a.q || a.index - b.index);
}

/** `/openapi/v2` as JSON or protobuf by the Accept header (406 when neither is acceptable), with ETag revalidation. */
function sendOpenAPIV2(req: IncomingMessage, res: ServerResponse, openapi: OpenAPIProvider): void {
  let subtype: string | undefined;
  for (const clause of acceptClauses(req.headers.accept)) {
    if (clause.type !== 'application' && clause.type !== '*') continue;
    subtype = OPENAPI_V2_SUBTYPES.find((s) => clause.subtype === s || clause.subtype === '*');
    if (subtype) break;
  }
  if (!subtype)
    throw new ApiError(
      406,
      'NotAcceptable',
      'only application/json and application/com.github.proto-openapi.spec.v2.v1.0+protobuf are served',
    );
  const etag = `"${openapi.v2ETag()}"`;
  const headers = { etag, vary: 'Accept', 'cache-control': 'no-cache, private' };
  const ifNoneMatch = req.headers['if-none-match'];
  if (
    ifNoneMatch &&
    (ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag))
  ) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  if (subtype === 'json') {
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    return sendJson(res, 200, openapi.v2());
  }
  const body = openapi.v2Protobuf();
  res.writeHead(200, {
    ...headers,
    'content-type': `application/${OPENAPI_V2_PROTOBUF}`,
    'content-length': String(body.byteLength),
  });
  res.end(body);
}
