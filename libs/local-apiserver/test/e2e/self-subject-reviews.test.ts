// Who am I and what may I do, with the real kubectl: SelfSubjectReview (`kubectl auth whoami`) answers the
// requester's user info — the impersonated user's under `--as` — and SelfSubjectRulesReview (`kubectl auth can-i
// --list`) the rules of the user's RBAC bindings in a namespace. Both are create-only, cluster-scoped, never stored.
import { request } from 'node:https';
import { describe, expect, it } from 'vitest';
import { kubectl, runKubectl, waitFor } from '@gardener-ts/test-support';
import { startTestCluster } from '../../src/index.js';
import { useBobCluster } from './bob-cluster.js';
import { rawClient, type RawResponse } from './raw-client.js';

const env = useBobCluster();
const admin = (args: string[], input?: string) => env.admin(args, input);

const REVIEW = JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/** A JSON POST as bob (static token), with extra headers. */
function asBobRaw(path: string, body: string, headers: Record<string, string | string[]> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${env.cluster.server.url}${path}`,
      {
        method: 'POST',
        ca: env.cluster.server.credentials.ca.certPem,
        headers: { authorization: 'Bearer bob-token', 'content-type': 'application/json', ...headers },
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

/**
 * kubectl sends SelfSubjectReview as protobuf; the body decoder (http/protobuf-schema, not part of this change) must
 * know the kind, else the server answers 415 as kube-apiserver does for an unknown body.
 */
describe('SelfSubjectReview', () => {
  it('is listed by discovery as a create-only, cluster-scoped resource', async () => {
    const list = rawClient(env.cluster.server);
    const group = (await list.send('GET', '/apis/authentication.k8s.io/v1')).json();
    expect(group.resources).toContainEqual(
      expect.objectContaining({
        name: 'selfsubjectreviews',
        singularName: 'selfsubjectreview',
        kind: 'SelfSubjectReview',
        namespaced: false,
        verbs: ['create'],
      }),
    );
    const table = await admin(['api-resources', '--api-group=authentication.k8s.io', '-o', 'wide', '--no-headers']);
    expect(
      table
        .split('\n')
        .find((l) => l.startsWith('selfsubjectreviews'))
        ?.trim()
        .split(/\s+/),
    ).toEqual(['selfsubjectreviews', 'authentication.k8s.io/v1', 'false', 'SelfSubjectReview', 'create']);
  });

  it('answers the requester’s user info, fresh and never stored', async () => {
    const raw = rawClient(env.cluster.server);
    const res = await raw.send(
      'POST',
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      JSON.stringify({
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'SelfSubjectReview',
        metadata: { name: 'ignored', labels: { a: 'b' } },
      }),
    );
    expect(res.status).toBe(201);
    expect(res.json()).toEqual({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'SelfSubjectReview',
      metadata: { creationTimestamp: expect.stringMatching(TIMESTAMP) },
      status: { userInfo: { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] } },
    });
    expect((await raw.send('GET', '/apis/authentication.k8s.io/v1/selfsubjectreviews')).status).toBe(405);

    const bob = await asBobRaw('/apis/authentication.k8s.io/v1/selfsubjectreviews', REVIEW);
    expect(bob.status).toBe(201);
    expect(bob.json().status).toEqual({
      userInfo: { username: 'bob', uid: 'uid-bob', groups: ['team-b', 'system:authenticated'] },
    });
  });

  it('answers the impersonated user under impersonation', async () => {
    const raw = rawClient(env.cluster.server);
    const res = await raw.send('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', REVIEW, {
      'Impersonate-User': 'alice',
      'Impersonate-Group': 'dev',
      'Impersonate-Uid': 'uid-alice',
      'Impersonate-Extra-Scopes': 'view',
    });
    expect(res.status).toBe(201);
    expect(res.json().status).toEqual({
      userInfo: {
        username: 'alice',
        uid: 'uid-alice',
        groups: ['dev', 'system:authenticated'],
        extra: { scopes: ['view'] },
      },
    });
    // bob may not impersonate: kube's 403, no review.
    const refused = await asBobRaw('/apis/authentication.k8s.io/v1/selfsubjectreviews', REVIEW, {
      'Impersonate-User': 'alice',
    });
    expect(refused.status).toBe(403);
  });

  it('works for kubectl auth whoami, also with --as', async () => {
    const me = JSON.parse(await admin(['auth', 'whoami', '-o', 'json']));
    expect(me).toEqual({
      kind: 'SelfSubjectReview',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { creationTimestamp: expect.stringMatching(TIMESTAMP) },
      status: { userInfo: { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] } },
    });
    const alice = JSON.parse(await admin(['--as=alice', 'auth', 'whoami', '-o', 'json']));
    expect(alice).toEqual({
      kind: 'SelfSubjectReview',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { creationTimestamp: expect.stringMatching(TIMESTAMP) },
      status: { userInfo: { username: 'alice', groups: ['system:authenticated'] } },
    });
    const dev = JSON.parse(await admin(['--as=alice', '--as-group=dev', 'auth', 'whoami', '-o', 'json']));
    expect(dev.status).toEqual({ userInfo: { username: 'alice', groups: ['dev', 'system:authenticated'] } });
    const table = await kubectl(env.bobConfig, ['auth', 'whoami']);
    expect(table.split('\n').map((l) => l.trim().split(/\s+/).join(' '))).toEqual(
      expect.arrayContaining([
        'ATTRIBUTE VALUE',
        'Username bob',
        'UID uid-bob',
        'Groups [team-b system:authenticated]',
      ]),
    );
  });
});

describe('SelfSubjectRulesReview', () => {
  it('lists the rules of the user’s bindings in the namespace for kubectl auth can-i --list', async () => {
    await admin(['create', 'role', 'reader', '-n', 'team', '--verb=get,list', '--resource=configmaps']);
    await admin(['create', 'rolebinding', 'bob-reader', '-n', 'team', '--role=reader', '--user=bob']);
    const rows = async (ns: string) =>
      (await kubectl(env.bobConfig, ['auth', 'can-i', '--list', '-n', ns]))
        .split('\n')
        .map((l) => l.trim().split(/\s+/).join(' '))
        .filter(Boolean);
    await waitFor('bob’s RoleBinding', async () => (await rows('team')).includes('configmaps [] [] [get list]'));
    const team = await rows('team');
    expect(team[0]).toBe('Resources Non-Resource URLs Resource Names Verbs');
    // The Role, and what the bootstrap policy gives every authenticated user.
    expect(team).toEqual(
      expect.arrayContaining([
        'configmaps [] [] [get list]',
        'selfsubjectreviews.authentication.k8s.io [] [] [create]',
        'selfsubjectaccessreviews.authorization.k8s.io [] [] [create]',
        'selfsubjectrulesreviews.authorization.k8s.io [] [] [create]',
        '[/api] [] [get]',
      ]),
    );
    // Another namespace has no RoleBinding for bob.
    expect(await rows('default')).not.toContain('configmaps [] [] [get list]');

    const review = await asBobRaw(
      '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
      JSON.stringify({
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectRulesReview',
        spec: { namespace: 'team' },
      }),
    );
    expect(review.status).toBe(201);
    expect(review.json().status.incomplete).toBe(false);
    expect(review.json().status.evaluationError).toBeUndefined();
    expect(review.json().status.resourceRules).toContainEqual({
      verbs: ['get', 'list'],
      apiGroups: [''],
      resources: ['configmaps'],
    });
  });

  it('lists everything for system:masters, and the impersonated user’s rules under --as', async () => {
    const rows = (await admin(['auth', 'can-i', '--list', '-n', 'team']))
      .split('\n')
      .map((l) => l.trim().split(/\s+/).join(' '));
    expect(rows).toEqual(expect.arrayContaining(['*.* [] [] [*]', '[*] [] [*]']));
    const asBob = (await runKubectl(env.cluster.kubeconfigPath, ['--as=bob', 'auth', 'can-i', '--list', '-n', 'team']))
      .stdout;
    expect(asBob).toMatch(/^configmaps\s+\[\]\s+\[\]\s+\[get list\]$/m);
    expect(asBob).not.toMatch(/^\*\.\*/m);
  });
});

describe('SelfSubjectRulesReview with an authorization webhook', () => {
  it('is incomplete, as kube’s webhook authorizer cannot enumerate rules', async () => {
    // The webhook is never asked for a rules review, so an unreachable one will do.
    const withWebhook = await startTestCluster({
      authorizationWebhook: { url: 'https://127.0.0.1:1/authorize', timeoutMs: 500 },
    });
    try {
      const res = await runKubectl(withWebhook.kubeconfigPath, ['auth', 'can-i', '--list', '-n', 'default']);
      expect(res.code).toBe(0);
      expect(res.stderr).toContain(
        'the list may be incomplete: webhook authorizer does not support user rule resolution',
      );
      const review = await rawClient(withWebhook.server).send(
        'POST',
        '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
        JSON.stringify({
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SelfSubjectRulesReview',
          spec: { namespace: 'default' },
        }),
      );
      expect(review.json().status).toMatchObject({
        incomplete: true,
        evaluationError: 'webhook authorizer does not support user rule resolution',
        resourceRules: expect.arrayContaining([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]),
      });
    } finally {
      await withWebhook.stop();
    }
  });
});
