// Audit logging with the real kubectl: a policy that records Secrets at Metadata, ConfigMaps at RequestResponse and
// nothing of kube-system or the health endpoints; the log file holds one audit.k8s.io/v1 Event per line.
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, runKubectl, waitFor } from '@gardener-ts/test-support';
import { LocalApiServer, startTestCluster, type TestCluster } from '../../src/index.js';
import { kubeconfig } from '../../src/pki/kubeconfig.js';
import { openWatch, rawClient } from './raw-client.js';

const SECRET_VALUE = 'TOP-SECRET-VALUE-4711';
const POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
rules:
- level: None
  namespaces: ["kube-system"]
- level: None
  nonResourceURLs: ["/healthz*", "/livez*", "/readyz*"]
- level: Metadata
  resources:
  - group: ""
    resources: ["secrets"]
- level: RequestResponse
  omitManagedFields: true
  resources:
  - group: ""
    resources: ["configmaps"]
- level: Metadata
`;

let cluster: TestCluster;
let logPath: string;
let bobConfig: string;
const admin = (args: string[]) => kubectl(cluster.kubeconfigPath, args);

async function events(): Promise<any[]> {
  const text = await readFile(logPath, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** Waits until the log holds an event matching `pick`, and returns it. */
function logged(what: string, pick: (ev: any) => boolean): Promise<any> {
  return waitFor(`the audit log to record ${what}`, async () => (await events()).find(pick), { timeoutMs: 15_000 });
}

const complete = (verb: string, resource: string, name: string) => (ev: any) =>
  ev.stage === 'ResponseComplete' &&
  ev.verb === verb &&
  ev.objectRef?.resource === resource &&
  ev.objectRef?.name === name;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'audit-log-'));
  await writeFile(join(dir, 'policy.yaml'), POLICY);
  await writeFile(join(dir, 'tokens'), 'bob-token,bob,uid-bob,"team-b"\n');
  logPath = join(dir, 'logs', 'nested', 'audit.log');
  cluster = await startTestCluster({
    tokenFile: join(dir, 'tokens'),
    audit: { policyFile: join(dir, 'policy.yaml'), logPath },
  });
  bobConfig = join(dir, 'bob.kubeconfig');
  await writeFile(
    bobConfig,
    kubeconfig('local', cluster.server.url, cluster.server.credentials.ca.certPem, { name: 'bob', token: 'bob-token' }),
  );
  await admin(['create', 'namespace', 'team']);
});

afterAll(async () => cluster?.stop());

describe('audit log backend', () => {
  it('creates the log file 0600 in new directories', async () => {
    await logged('the team namespace', complete('create', 'namespaces', 'team'));
    expect((await stat(logPath)).mode & 0o777).toBe(0o600);
  });

  it('records Secrets at Metadata only: no secret data anywhere in the file', async () => {
    await admin(['create', 'secret', 'generic', 'db', '-n', 'team', `--from-literal=password=${SECRET_VALUE}`]);
    expect(await admin(['get', 'secret', 'db', '-n', 'team', '-o', 'jsonpath={.data.password}'])).toBe(
      Buffer.from(SECRET_VALUE).toString('base64'),
    );
    await admin(['delete', 'secret', 'db', '-n', 'team']);

    const created = await logged('the secret create', complete('create', 'secrets', 'db'));
    const read = await logged('the secret get', complete('get', 'secrets', 'db'));
    const deleted = await logged('the secret delete', complete('delete', 'secrets', 'db'));
    for (const ev of [created, read, deleted]) {
      expect(ev).toMatchObject({
        kind: 'Event',
        apiVersion: 'audit.k8s.io/v1',
        level: 'Metadata',
        user: { username: 'kubernetes-admin' },
      });
      expect(ev.requestObject).toBeUndefined();
      expect(ev.responseObject).toBeUndefined();
      expect(ev.annotations['authorization.k8s.io/decision']).toBe('allow');
      expect(ev.userAgent).toMatch(/^kubectl/);
      expect(ev.sourceIPs).toEqual(['127.0.0.1']);
    }
    expect(created).toMatchObject({
      objectRef: { resource: 'secrets', namespace: 'team', name: 'db', apiVersion: 'v1' },
      responseStatus: { code: 201 },
    });
    expect(read.responseStatus).toEqual({ metadata: {}, code: 200 });
    expect(created.requestReceivedTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(created.stageTimestamp >= created.requestReceivedTimestamp).toBe(true);
    const received = (await events()).find((ev) => ev.auditID === created.auditID && ev.stage === 'RequestReceived');
    expect(received).toBeDefined();

    const text = await readFile(logPath, 'utf8');
    expect(text).not.toContain(SECRET_VALUE);
    expect(text).not.toContain(Buffer.from(SECRET_VALUE).toString('base64'));
  });

  it('records ConfigMaps at RequestResponse with their request and response objects, without managedFields', async () => {
    await admin(['create', 'configmap', 'colors', '-n', 'team', '--from-literal=color=blue']);
    await admin(['get', 'configmap', 'colors', '-n', 'team', '-o', 'yaml']);
    await admin(['delete', 'configmap', 'colors', '-n', 'team']);

    const created = await logged('the configmap create', complete('create', 'configmaps', 'colors'));
    expect(created.level).toBe('RequestResponse');
    expect(created.requestObject).toMatchObject({
      kind: 'ConfigMap',
      metadata: { name: 'colors' },
      data: { color: 'blue' },
    });
    expect(created.responseObject).toMatchObject({
      kind: 'ConfigMap',
      metadata: { name: 'colors', namespace: 'team' },
      data: { color: 'blue' },
    });
    expect(created.responseObject.metadata.managedFields).toBeUndefined();
    expect(created.responseStatus).toEqual({ metadata: {}, code: 201 });

    const read = await logged('the configmap get', complete('get', 'configmaps', 'colors'));
    expect(read.requestObject).toBeUndefined();
    expect(read.responseObject).toMatchObject({ metadata: { name: 'colors' }, data: { color: 'blue' } });

    const deleted = await logged('the configmap delete', complete('delete', 'configmaps', 'colors'));
    expect(deleted.requestObject).toMatchObject({ kind: 'DeleteOptions' });
  });

  it('records nothing of kube-system or the health endpoints', async () => {
    await admin(['create', 'configmap', 'system-settings', '-n', 'kube-system', '--from-literal=a=b']);
    const client = rawClient(cluster.server);
    expect((await client.send('GET', '/healthz')).status).toBe(200);
    expect((await client.send('GET', '/readyz')).status).toBe(200);
    // A later request is logged, so the earlier ones would have been too.
    const marker = await client.send('GET', '/api/v1/namespaces/team/configmaps?limit=1');
    await logged(
      'the marker list',
      (ev) => ev.auditID === marker.headers['audit-id'] && ev.stage === 'ResponseComplete',
    );
    const all = await events();
    expect(all.filter((ev) => ev.objectRef?.namespace === 'kube-system')).toEqual([]);
    expect(all.filter((ev) => /^\/(healthz|readyz|livez)/.test(ev.requestURI))).toEqual([]);
  });

  it('logs a forbidden request with code 403 and decision forbid', async () => {
    const res = await runKubectl(bobConfig, ['get', 'configmaps', '-n', 'team']);
    expect(res.code).not.toBe(0);
    const forbidden = await logged(
      'bob’s forbidden list',
      (ev) =>
        ev.stage === 'ResponseComplete' &&
        ev.user?.username === 'bob' &&
        ev.verb === 'list' &&
        ev.objectRef?.resource === 'configmaps',
    );
    expect(forbidden.user).toEqual({ username: 'bob', uid: 'uid-bob', groups: ['team-b', 'system:authenticated'] });
    expect(forbidden.responseStatus).toMatchObject({ status: 'Failure', reason: 'Forbidden', code: 403 });
    expect(forbidden.responseStatus.message).toContain('User "bob" cannot list resource "configmaps"');
    expect(forbidden.annotations['authorization.k8s.io/decision']).toBe('forbid');
    expect(forbidden.responseObject).toMatchObject({ kind: 'Status', code: 403 });
  });

  it('logs the impersonating user as user and the impersonated one as impersonatedUser', async () => {
    const res = await runKubectl(cluster.kubeconfigPath, [
      '--as=bob',
      '--as-group=team-b',
      'get',
      'secrets',
      '-n',
      'team',
    ]);
    expect(res.code).not.toBe(0);
    const ev = await logged(
      'the impersonated list',
      (e) =>
        e.stage === 'ResponseComplete' && e.impersonatedUser?.username === 'bob' && e.objectRef?.resource === 'secrets',
    );
    expect(ev.user.username).toBe('kubernetes-admin');
    expect(ev.impersonatedUser).toEqual({ username: 'bob', groups: ['team-b', 'system:authenticated'] });
    expect(ev.responseStatus.code).toBe(403);
  });

  it('returns the Audit-Id header that the log names', async () => {
    const res = await rawClient(cluster.server).send('GET', '/api/v1/namespaces/team/secrets');
    expect(res.status).toBe(200);
    const id = res.headers['audit-id'];
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const ev = await logged('the request with the Audit-Id', (e) => e.auditID === id && e.stage === 'ResponseComplete');
    expect(ev).toMatchObject({
      verb: 'list',
      requestURI: '/api/v1/namespaces/team/secrets',
      objectRef: { resource: 'secrets', namespace: 'team' },
    });
    // Requests the policy does not record get an ID all the same.
    expect((await rawClient(cluster.server).send('GET', '/healthz')).headers['audit-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs a watch in three stages: RequestReceived, ResponseStarted, ResponseComplete', async () => {
    const watch = openWatch(cluster.server, '/api/v1/namespaces/team/pods?watch=true');
    const started = await logged(
      'the watch start',
      (e) => e.stage === 'ResponseStarted' && e.verb === 'watch' && e.objectRef?.resource === 'pods',
    );
    expect(started.responseStatus).toEqual({ metadata: {}, code: 200 });
    watch.stop();
    const stages = await waitFor(
      'the watch to complete',
      async () => {
        const mine = (await events()).filter((e) => e.auditID === started.auditID).map((e) => e.stage);
        return mine.includes('ResponseComplete') ? mine : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(stages).toEqual(['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
  });
});

describe('audit configuration errors', () => {
  it('refuses to start with an invalid policy, naming the field', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'audit-bad-'));
    const file = join(dir, 'policy.yaml');
    await writeFile(
      file,
      'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: None\n- level: Metadata\n- level: Everything\n',
    );
    await expect(
      LocalApiServer.start({ audit: { policyFile: file, logPath: join(dir, 'audit.log') } }),
    ).rejects.toThrow(
      'rules[2].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"',
    );
  });
});
