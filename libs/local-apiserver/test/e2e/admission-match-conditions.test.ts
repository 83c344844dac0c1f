// Admission webhook matchConditions against a real HTTPS webhook server that counts its calls: a false condition
// keeps a request away from the webhook, the `request` and `authorizer` variables see the requesting user, an
// evaluation error is decided by the failurePolicy (Fail: kube's 403 without calling the webhook; Ignore: skipped),
// and invalid conditions are refused on create and update with kube's 422 field errors.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalApiServer } from '../../src/index.js';
import { createCA, issueCertificate } from '../../src/pki/certs.js';
import { rawClient, type RawResponse } from './raw-client.js';

let server: LocalApiServer;
let api: ReturnType<typeof rawClient>;
let webhook: Server;
let webhookUrl: string;
let caBundle: string;
/** Names of the objects the webhook was called for, by webhook path. */
const calls: { path: string; name: string; user: string }[] = [];

beforeAll(async () => {
  const ca = await createCA('webhook-ca');
  const serving = await issueCertificate(ca, { commonName: 'webhook', usage: 'server', ipAddresses: ['127.0.0.1'] });
  caBundle = Buffer.from(ca.certPem).toString('base64');
  webhook = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const review = JSON.parse(body);
      calls.push({ path: req.url ?? '', name: review.request.name, user: review.request.userInfo?.username });
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          apiVersion: 'admission.k8s.io/v1',
          kind: 'AdmissionReview',
          response: { uid: review.request.uid, allowed: true },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
  webhookUrl = `https://127.0.0.1:${(webhook.address() as AddressInfo).port}`;
  const tokenFile = join(await mkdtemp(join(tmpdir(), 'match-conditions-')), 'tokens');
  await writeFile(tokenFile, 'bob-token,bob,uid-bob,"team-b"\n');
  server = await LocalApiServer.start({ tokenFile });
  api = rawClient(server);
});
afterAll(async () => {
  await server?.stop();
  webhook?.close();
});

/** A request as the static-token user bob. */
function asBob(method: string, path: string, body?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.url}${path}`,
      {
        method,
        ca: server.credentials.ca.certPem,
        headers: { authorization: 'Bearer bob-token', 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, json: () => JSON.parse(text) }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const cm = (name: string, labels: Record<string, string> = {}) =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data: { a: 'b' } });
const WEBHOOKS = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';

function configuration(name: string, hooks: Record<string, unknown>[]) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name },
    webhooks: hooks.map((hook, i) => ({
      name: `${name}-${i}.example.com`,
      admissionReviewVersions: ['v1'],
      sideEffects: 'None',
      clientConfig: { url: `${webhookUrl}/${name}`, caBundle },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      ...hook,
    })),
  };
}

async function configure(name: string, hook: Record<string, unknown>): Promise<void> {
  await api.send('DELETE', `${WEBHOOKS}/${name}`);
  const res = await api.send('POST', WEBHOOKS, JSON.stringify(configuration(name, [hook])));
  expect(res.status, res.body).toBe(201);
  // The webhook set is read from a watch-fed snapshot.
  await new Promise((r) => setTimeout(r, 300));
}

const callsFor = (path: string, name: string) => calls.filter((c) => c.path === `/${path}` && c.name === name).length;

describe('admission webhook matchConditions', () => {
  it('call the webhook only for requests where every condition is true', async () => {
    await configure('labelled', {
      matchConditions: [
        { name: 'not-opted-out', expression: "!('skip' in object.metadata.labels)" },
        { name: 'creates-only', expression: "request.operation == 'CREATE' && oldObject == null" },
        { name: 'in-default', expression: "request.namespace == 'default' && request.kind.kind == 'ConfigMap'" },
      ],
      objectSelector: { matchLabels: { suite: 'mc' } },
    });
    expect(
      (await api.send('POST', '/api/v1/namespaces/default/configmaps', cm('mc-called', { suite: 'mc' }))).status,
    ).toBe(201);
    expect(
      (await api.send('POST', '/api/v1/namespaces/default/configmaps', cm('mc-skipped', { suite: 'mc', skip: 'yes' })))
        .status,
    ).toBe(201);
    expect(callsFor('labelled', 'mc-called')).toBe(1);
    expect(callsFor('labelled', 'mc-skipped')).toBe(0);
    await api.send('DELETE', `${WEBHOOKS}/labelled`);
  });

  it('evaluate the request’s user and the authorizer variable for the requesting user', async () => {
    // bob may create ConfigMaps in default but not list Secrets; the admin (system:masters) may do everything.
    await api.send(
      'POST',
      '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles',
      JSON.stringify({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'cm-writer' },
        rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create'] }],
      }),
    );
    await api.send(
      'POST',
      '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings',
      JSON.stringify({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'bob-writes' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-writer' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' }],
      }),
    );
    await configure('unprivileged', {
      matchConditions: [
        {
          name: 'cannot-list-secrets',
          expression: "!authorizer.group('').resource('secrets').namespace(request.namespace).check('list').allowed()",
        },
        { name: 'may-create-it', expression: "authorizer.requestResource.check('create').allowed()" },
        { name: 'a-user', expression: "request.userInfo.groups.exists(g, g == 'system:authenticated')" },
      ],
      objectSelector: { matchLabels: { suite: 'authz' } },
    });
    await new Promise((r) => setTimeout(r, 200));
    const byBob = await asBob('POST', '/api/v1/namespaces/default/configmaps', cm('authz-bob', { suite: 'authz' }));
    expect(byBob.status, byBob.body).toBe(201);
    expect(
      (await api.send('POST', '/api/v1/namespaces/default/configmaps', cm('authz-admin', { suite: 'authz' }))).status,
    ).toBe(201);
    expect(calls.filter((c) => c.path === '/unprivileged').map((c) => [c.name, c.user])).toEqual([
      ['authz-bob', 'bob'],
    ]);
    await api.send('DELETE', `${WEBHOOKS}/unprivileged`);
  });

  it('refuse the request without calling the webhook when a condition errors and failurePolicy is Fail', async () => {
    const conditions = [
      { name: 'always', expression: 'true' },
      { name: 'broken', expression: "object.data.missing == 'x'" },
    ];
    await configure('failing', {
      failurePolicy: 'Fail',
      matchConditions: conditions,
      objectSelector: { matchLabels: { suite: 'err' } },
    });
    const refused = await api.send('POST', '/api/v1/namespaces/default/configmaps', cm('err-fail', { suite: 'err' }));
    expect(refused.status, refused.body).toBe(403);
    expect(refused.json().reason).toBe('Forbidden');
    expect(refused.json().message).toMatch(
      /^configmaps "err-fail" is forbidden: expression 'object\.data\.missing == 'x'' resulted in error: .*missing/,
    );
    expect((await api.send('GET', '/api/v1/namespaces/default/configmaps/err-fail')).status).toBe(404);
    expect(callsFor('failing', 'err-fail')).toBe(0);

    // A false condition skips the webhook even when another one errors.
    await configure('failing', {
      failurePolicy: 'Fail',
      matchConditions: [...conditions, { name: 'opted-out', expression: "!('skip' in object.metadata.labels)" }],
      objectSelector: { matchLabels: { suite: 'err' } },
    });
    expect(
      (await api.send('POST', '/api/v1/namespaces/default/configmaps', cm('err-false', { suite: 'err', skip: 'yes' })))
        .status,
    ).toBe(201);
    expect(callsFor('failing', 'err-false')).toBe(0);

    // Ignore skips the webhook and lets the request pass.
    await configure('failing', {
      failurePolicy: 'Ignore',
      matchConditions: conditions,
      objectSelector: { matchLabels: { suite: 'err' } },
    });
    expect(
      (await api.send('POST', '/api/v1/namespaces/default/configmaps', cm('err-ignore', { suite: 'err' }))).status,
    ).toBe(201);
    expect(callsFor('failing', 'err-ignore')).toBe(0);
    await api.send('DELETE', `${WEBHOOKS}/failing`);
  });

  it('refuse invalid conditions on create and update with kube’s field errors', async () => {
    const create = (hooks: Record<string, unknown>[]) =>
      api.send('POST', WEBHOOKS, JSON.stringify(configuration('invalid', hooks)));

    const syntax = await create([
      {
        matchConditions: [
          { name: 'ok', expression: 'true' },
          { name: 'bad', expression: 'object.metadata.name ==' },
        ],
      },
    ]);
    expect(syntax.status).toBe(422);
    expect(syntax.json().reason).toBe('Invalid');
    expect(syntax.json().message).toMatch(
      /^ValidatingWebhookConfiguration\.admissionregistration\.k8s\.io "invalid" is invalid: webhooks\[0\]\.matchConditions\[1\]\.expression: Invalid value: "object\.metadata\.name ==": compilation failed: /,
    );
    expect(syntax.json().details.causes).toEqual([
      expect.objectContaining({ field: 'webhooks[0].matchConditions[1].expression', reason: 'FieldValueInvalid' }),
    ]);

    const notBool = await create([{ matchConditions: [{ name: 'a', expression: 'object.metadata.name' }] }]);
    expect(notBool.status).toBe(422);
    expect(notBool.json().message).toContain(
      'webhooks[0].matchConditions[0].expression: Invalid value: "object.metadata.name": must evaluate to bool',
    );

    const duplicate = await create([
      {},
      {
        matchConditions: [
          { name: 'same', expression: 'true' },
          { name: 'same', expression: 'false' },
          { name: 'Not Valid!', expression: ' ' },
        ],
      },
    ]);
    expect(duplicate.status).toBe(422);
    const fields = duplicate
      .json()
      .details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
    expect(fields).toEqual([
      'webhooks[1].matchConditions[1].name: Duplicate value: "same"',
      'webhooks[1].matchConditions[2].expression: Required value',
      expect.stringMatching(
        /^webhooks\[1\]\.matchConditions\[2\]\.name: Invalid value: "Not Valid!": name part must consist of alphanumeric characters/,
      ),
    ]);

    const many = Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' }));
    const tooMany = await create([{ matchConditions: many }]);
    expect(tooMany.status).toBe(422);
    expect(tooMany.json().message).toContain('webhooks[0].matchConditions: Too many: 65: must have at most 64 items');
    expect((await api.send('GET', `${WEBHOOKS}/invalid`)).status).toBe(404);

    // Exactly 64 valid conditions are accepted; an update that breaks one is refused.
    const created = await create([{ matchConditions: many.slice(0, 64) }]);
    expect(created.status, created.body).toBe(201);
    const stored = created.json();
    stored.webhooks[0].matchConditions[3].expression = "'a' + 1 == 'x'";
    const update = await api.send('PUT', `${WEBHOOKS}/invalid`, JSON.stringify(stored));
    expect(update.status).toBe(422);
    expect(update.json().message).toContain(
      "webhooks[0].matchConditions[3].expression: Invalid value: \"'a' + 1 == 'x'\": compilation failed: ",
    );
    await api.send('DELETE', `${WEBHOOKS}/invalid`);
  });
});
