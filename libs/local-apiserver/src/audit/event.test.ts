import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors.js';
import { Auditor } from './auditor.js';
import { microTime, newEvent, responseStatus, serializeEvent, sourceIPs, withoutManagedFields } from './event.js';
import { parsePolicy, PolicyEvaluator } from './policy.js';
import { auditRequestBody, auditResponseBody } from './registry.js';
import type { AuditAttributes, AuditSink } from './types.js';

const admin = { username: 'admin', uid: 'u1', groups: ['system:masters', 'system:authenticated'] };

function fakeRequest(
  url = '/api/v1/namespaces/default/configmaps',
  headers: Record<string, string> = {},
): IncomingMessage {
  return Object.assign(new EventEmitter(), {
    url,
    headers: { 'user-agent': 'kubectl/v1.35.0', ...headers },
    socket: { remoteAddress: '127.0.0.1' },
  }) as unknown as IncomingMessage;
}

function fakeResponse(): ServerResponse & { headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  const res = Object.assign(new EventEmitter(), {
    headers,
    headersSent: false,
    statusCode: 200,
    setHeader(name: string, value: string) {
      headers[name] = value;
    },
    writeHead(code: number) {
      res.statusCode = code;
      res.headersSent = true;
      return res;
    },
  });
  return res as unknown as ServerResponse & { headers: Record<string, string> };
}

function createAttributes(verb = 'create', resource = 'configmaps', subresource = ''): AuditAttributes {
  return {
    user: admin,
    kind: 'resource',
    resource: { verb, namespace: 'default', group: '', version: 'v1', resource, subresource, name: '' },
  };
}

function auditorWith(rules: unknown[], extra: Record<string, unknown> = {}) {
  const lines: any[] = [];
  const sink: AuditSink = {
    name: 'memory',
    process: (json) => void lines.push(JSON.parse(json)),
    stop: async () => {},
  };
  const auditor = new Auditor({
    policy: new PolicyEvaluator(parsePolicy({ apiVersion: 'audit.k8s.io/v1', kind: 'Policy', rules, ...extra })),
    sinks: [sink],
  });
  return { auditor, lines };
}

/** One request through the audit: received, authorized, a body in, a body out, closed. */
function runRequest(
  auditor: Auditor,
  opts: { attributes?: AuditAttributes; body?: unknown; response?: unknown; code?: number; url?: string } = {},
) {
  const req = fakeRequest(opts.url);
  const res = fakeResponse();
  const audit = auditor.begin(req, res);
  audit.received(opts.attributes ?? createAttributes());
  audit.authorized({ allowed: true, reason: 'RBAC: allowed' });
  if (opts.body !== undefined) auditRequestBody(req, Buffer.from(JSON.stringify(opts.body)));
  if (opts.response !== undefined) auditResponseBody(res, opts.response);
  res.writeHead(opts.code ?? 201);
  res.emit('close');
  return { audit, res };
}

const configMap = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cfg', managedFields: [{ manager: 'kubectl' }] },
  data: { k: 'v' },
};

describe('audit events', () => {
  it('prints RFC 3339 micro timestamps', () => {
    expect(microTime(Date.UTC(2026, 0, 2, 15, 4, 5) * 1000 + 123_456)).toBe('2026-01-02T15:04:05.123456Z');
    expect(microTime(Date.UTC(2026, 0, 2, 15, 4, 5) * 1000)).toBe('2026-01-02T15:04:05.000000Z');
  });

  it('takes the source IPs from X-Forwarded-For, X-Real-Ip and the connection', () => {
    expect(sourceIPs(fakeRequest('/', { 'x-forwarded-for': '10.0.0.1, 10.0.0.2', 'x-real-ip': '10.0.0.3' }))).toEqual([
      '10.0.0.1',
      '10.0.0.2',
      '10.0.0.3',
      '127.0.0.1',
    ]);
    expect(sourceIPs(fakeRequest('/'))).toEqual(['127.0.0.1']);
  });

  it('builds the RequestReceived event and prints it in kube’s field order without empty fields', () => {
    const ev = newEvent({
      auditID: 'id-1',
      level: 'Metadata',
      attributes: createAttributes('list', 'pods'),
      req: fakeRequest('/api/v1/namespaces/default/pods?limit=500'),
      receivedMicros: 1_700_000_000_000_000,
    });
    const json = serializeEvent(ev);
    expect(JSON.parse(json)).toEqual({
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: 'Metadata',
      auditID: 'id-1',
      stage: 'RequestReceived',
      requestURI: '/api/v1/namespaces/default/pods?limit=500',
      verb: 'list',
      user: { username: 'admin', uid: 'u1', groups: ['system:masters', 'system:authenticated'] },
      sourceIPs: ['127.0.0.1'],
      userAgent: 'kubectl/v1.35.0',
      objectRef: { resource: 'pods', namespace: 'default', apiVersion: 'v1' },
      requestReceivedTimestamp: '2023-11-14T22:13:20.000000Z',
      stageTimestamp: '2023-11-14T22:13:20.000000Z',
    });
    expect(Object.keys(JSON.parse(json))).toEqual([
      'kind',
      'apiVersion',
      'level',
      'auditID',
      'stage',
      'requestURI',
      'verb',
      'user',
      'sourceIPs',
      'userAgent',
      'objectRef',
      'requestReceivedTimestamp',
      'stageTimestamp',
    ]);
  });

  it('keeps the bounded fields of a Status response, else only the code', () => {
    expect(responseStatus(200, { kind: 'ConfigMap' })).toEqual({ metadata: {}, code: 200 });
    expect(responseStatus(403, new ApiError(403, 'Forbidden', 'no', { kind: 'pods' }).toStatus())).toEqual({
      metadata: {},
      status: 'Failure',
      message: 'no',
      reason: 'Forbidden',
      details: { kind: 'pods' },
      code: 403,
    });
  });

  it('drops managedFields from objects, list items and table rows', () => {
    expect(withoutManagedFields(configMap)).toEqual({ ...configMap, metadata: { name: 'cfg' } });
    expect(withoutManagedFields({ kind: 'ConfigMapList', items: [configMap] })).toEqual({
      kind: 'ConfigMapList',
      items: [{ ...configMap, metadata: { name: 'cfg' } }],
    });
    expect(withoutManagedFields({ kind: 'Table', rows: [{ cells: [], object: configMap }] })).toEqual({
      kind: 'Table',
      rows: [{ cells: [], object: { ...configMap, metadata: { name: 'cfg' } } }],
    });
    expect(configMap.metadata.managedFields).toHaveLength(1);
  });
});

describe('request audits', () => {
  it('sets the Audit-Id header on every request, taking the client’s Audit-ID when given', () => {
    const auditor = new Auditor();
    const res = fakeResponse();
    const audit = auditor.begin(fakeRequest(), res);
    expect(res.headers['Audit-Id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(audit.id).toBe(res.headers['Audit-Id']);
    expect(auditor.begin(fakeRequest('/', { 'audit-id': 'mine' }), fakeResponse()).id).toBe('mine');
  });

  it('logs RequestReceived and ResponseComplete at Metadata without objects, with the name from the request object', () => {
    const { auditor, lines } = auditorWith([{ level: 'Metadata' }]);
    const { audit } = runRequest(auditor, { body: configMap, response: configMap });
    expect(lines.map((l) => l.stage)).toEqual(['RequestReceived', 'ResponseComplete']);
    expect(lines.every((l) => l.auditID === audit.id)).toBe(true);
    const done = lines[1];
    expect(done.requestObject).toBeUndefined();
    expect(done.responseObject).toBeUndefined();
    expect(done.objectRef).toEqual({ resource: 'configmaps', namespace: 'default', name: 'cfg', apiVersion: 'v1' });
    expect(done.responseStatus).toEqual({ metadata: {}, code: 201 });
    expect(done.annotations).toEqual({
      'authorization.k8s.io/decision': 'allow',
      'authorization.k8s.io/reason': 'RBAC: allowed',
    });
    expect(lines[0].objectRef.name).toBeUndefined();
  });

  it('logs the request object at Request and both objects at RequestResponse, without managedFields when omitted', () => {
    const request = auditorWith([{ level: 'Request' }]);
    runRequest(request.auditor, { body: configMap, response: configMap });
    expect(request.lines[1].requestObject).toEqual(configMap);
    expect(request.lines[1].responseObject).toBeUndefined();

    const full = auditorWith([{ level: 'RequestResponse', omitManagedFields: true }]);
    runRequest(full.auditor, { body: configMap, response: configMap });
    expect(full.lines[1].requestObject).toEqual({ ...configMap, metadata: { name: 'cfg' } });
    expect(full.lines[1].responseObject).toEqual({ ...configMap, metadata: { name: 'cfg' } });
  });

  it('logs nothing for level None and leaves out omitted stages', () => {
    const none = auditorWith([{ level: 'None', resources: [{ resources: ['configmaps'] }] }, { level: 'Metadata' }]);
    runRequest(none.auditor);
    expect(none.lines).toEqual([]);

    const omitted = auditorWith([{ level: 'Metadata', omitStages: ['RequestReceived'] }]);
    runRequest(omitted.auditor);
    expect(omitted.lines.map((l) => l.stage)).toEqual(['ResponseComplete']);
  });

  it('emits ResponseStarted for long-running requests when their headers go out', () => {
    const { auditor, lines } = auditorWith([{ level: 'Metadata' }]);
    const req = fakeRequest('/api/v1/namespaces/default/pods?watch=true');
    const res = fakeResponse();
    const audit = auditor.begin(req, res);
    audit.received(createAttributes('watch', 'pods'));
    res.writeHead(200);
    expect(lines.map((l) => l.stage)).toEqual(['RequestReceived', 'ResponseStarted']);
    res.emit('close');
    expect(lines.map((l) => l.stage)).toEqual(['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
    expect(lines[2].responseStatus).toEqual({ metadata: {}, code: 200 });
  });

  it('records a handler crash as the Panic stage and impersonation as impersonatedUser', () => {
    const { auditor, lines } = auditorWith([{ level: 'Metadata' }]);
    const req = fakeRequest();
    const res = fakeResponse();
    const audit = auditor.begin(req, res);
    audit.received(createAttributes());
    audit.impersonated({ username: 'alice', groups: ['system:authenticated'] });
    audit.failed(new TypeError('boom'));
    res.writeHead(500);
    res.emit('close');
    expect(lines[1]).toMatchObject({
      stage: 'Panic',
      user: { username: 'admin' },
      impersonatedUser: { username: 'alice', groups: ['system:authenticated'] },
      responseStatus: { status: 'Failure', reason: 'InternalError', message: "APIServer panic'd: boom", code: 500 },
    });
  });

  it('logs a failed authentication once, at ResponseStarted, without user', () => {
    const { auditor, lines } = auditorWith([{ level: 'Metadata' }]);
    const req = fakeRequest('/api/v1/pods', { authorization: 'Bearer nope' });
    const res = fakeResponse();
    auditor.begin(req, res).unauthenticated(createAttributes('list', 'pods'));
    res.writeHead(401);
    res.emit('close');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      stage: 'ResponseStarted',
      user: {},
      responseStatus: { message: 'Authentication failed, attempted: bearer', code: 401 },
    });
  });

  it('completes open requests on stop', async () => {
    const { auditor, lines } = auditorWith([{ level: 'Metadata' }]);
    auditor.begin(fakeRequest(), fakeResponse()).received(createAttributes());
    await auditor.stop();
    expect(lines.map((l) => l.stage)).toEqual(['RequestReceived', 'ResponseComplete']);
    expect(lines[1].responseStatus).toEqual({
      metadata: {},
      status: 'Success',
      message: 'Connection closed early',
      code: 200,
    });
  });
});
