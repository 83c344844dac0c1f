// kube's resourceVersion semantics for GET and LIST over HTTPS: Exact lists at an older revision (also paginated, and
// the legacy meaning of a resourceVersion with a limit), continue tokens that keep serving the first page's
// revision, 410 Expired for revisions out of the history (with kube's fresh-continue hint for an expired token), GET
// at a resourceVersion (served, or 504 Too large), and kube's validation errors for list and watch options. The
// memory store first, then etcd with the watch cache (a GET at the next revision waits for it; Exact lists older than
// the cache come from etcd, compacted ones are 410).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalApiServer } from '../../src/index.js';
import { startEtcd, type EtcdProcess } from '../storage/etcd-process.js';
import { rawClient } from './raw-client.js';

const CM = '/api/v1/namespaces/default/configmaps';
const cm = (name: string, label: string) =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { rvtest: label } } });
const names = (list: any): string[] => list.items.map((o: any) => o.metadata.name);

/** Creates a, b; returns the list's revision; then deletes a and creates c. */
async function scenario(send: ReturnType<typeof rawClient>['send'], label: string): Promise<string> {
  for (const name of [`${label}-a`, `${label}-b`]) expect((await send('POST', CM, cm(name, label))).status).toBe(201);
  const before = await send('GET', `${CM}?labelSelector=rvtest%3D${label}`);
  expect(names(before.json())).toEqual([`${label}-a`, `${label}-b`]);
  expect((await send('DELETE', `${CM}/${label}-a`)).status).toBe(200);
  expect((await send('POST', CM, cm(`${label}-c`, label))).status).toBe(201);
  return before.json().metadata.resourceVersion as string;
}

describe('resourceVersion semantics (memory storage)', () => {
  let server: LocalApiServer;
  let send: ReturnType<typeof rawClient>['send'];
  beforeAll(async () => {
    server = await LocalApiServer.start({ watchHistory: 50 });
    ({ send } = rawClient(server));
  });
  afterAll(async () => server?.stop());

  it('lists exactly at an older revision: a later-deleted object is there, a later-created one is not', async () => {
    const rv = await scenario(send, 'exact');
    const sel = 'labelSelector=rvtest%3Dexact';
    const exact = await send('GET', `${CM}?${sel}&resourceVersion=${rv}&resourceVersionMatch=Exact`);
    expect(exact.status).toBe(200);
    expect(exact.json().metadata.resourceVersion).toBe(rv);
    expect(names(exact.json())).toEqual(['exact-a', 'exact-b']);
    // NotOlderThan and no resourceVersion: today's objects.
    expect(
      names((await send('GET', `${CM}?${sel}&resourceVersion=${rv}&resourceVersionMatch=NotOlderThan`)).json()),
    ).toEqual(['exact-b', 'exact-c']);
    expect(names((await send('GET', `${CM}?${sel}`)).json())).toEqual(['exact-b', 'exact-c']);
    // Exact, paginated: every page at the same revision, the continue token carrying it.
    const first = (await send('GET', `${CM}?${sel}&resourceVersion=${rv}&resourceVersionMatch=Exact&limit=1`)).json();
    expect(names(first)).toEqual(['exact-a']);
    expect(first.metadata.resourceVersion).toBe(rv);
    expect(first.metadata.continue).toBeTruthy();
    const second = (await send('GET', `${CM}?${sel}&limit=1&continue=${first.metadata.continue}`)).json();
    expect(names(second)).toEqual(['exact-b']);
    expect(second.metadata.resourceVersion).toBe(rv);
    // The legacy meaning: a resourceVersion with a limit and no match is Exact too.
    const legacy = (await send('GET', `${CM}?${sel}&resourceVersion=${rv}&limit=5`)).json();
    expect(names(legacy)).toEqual(['exact-a', 'exact-b']);
    expect(legacy.metadata.resourceVersion).toBe(rv);
  });

  it('serves the pages after the first at the first page revision, whatever changed since', async () => {
    for (const name of ['page-a', 'page-b', 'page-c'])
      expect((await send('POST', CM, cm(name, 'page'))).status).toBe(201);
    const sel = 'labelSelector=rvtest%3Dpage';
    const first = (await send('GET', `${CM}?${sel}&limit=1`)).json();
    expect(names(first)).toEqual(['page-a']);
    expect((await send('DELETE', `${CM}/page-b`)).status).toBe(200);
    expect((await send('POST', CM, cm('page-bb', 'page'))).status).toBe(201);
    const rest = (await send('GET', `${CM}?${sel}&limit=10&continue=${first.metadata.continue}`)).json();
    expect(names(rest)).toEqual(['page-b', 'page-c']);
    expect(rest.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
  });

  it('answers 410 Expired for a revision out of the history, with a fresh continue token for an expired one', async () => {
    const rv = await scenario(send, 'old');
    const first = (await send('GET', `${CM}?labelSelector=rvtest%3Dold&limit=1`)).json();
    expect(names(first)).toEqual(['old-b']);
    // Push both revisions out of the 50-event history.
    expect((await send('POST', CM, cm('churn', 'churn'))).status).toBe(201);
    for (let i = 0; i < 60; i++) {
      const res = await send('PATCH', `${CM}/churn`, JSON.stringify({ data: { i: String(i) } }), {
        'content-type': 'application/merge-patch+json',
      });
      expect(res.status).toBe(200);
    }
    const expired = await send('GET', `${CM}?resourceVersion=${rv}&resourceVersionMatch=Exact`);
    expect(expired.status).toBe(410);
    expect(expired.json()).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Expired',
      code: 410,
      message: 'The resourceVersion for the provided list is too old.',
    });
    const legacy = await send('GET', `${CM}?resourceVersion=${rv}&limit=1`);
    expect(legacy.status).toBe(410);
    const cont = await send('GET', `${CM}?labelSelector=rvtest%3Dold&limit=1&continue=${first.metadata.continue}`);
    expect(cont.status).toBe(410);
    const status = cont.json();
    expect(status).toMatchObject({ reason: 'Expired', code: 410 });
    expect(status.message).toMatch(/^The provided continue parameter is too old to display a consistent list result\./);
    expect(status.metadata.continue).toBeTruthy();
    // The hint goes on at the latest revision, after the key the expired token stopped at.
    const resumed = await send('GET', `${CM}?labelSelector=rvtest%3Dold&limit=10&continue=${status.metadata.continue}`);
    expect(resumed.status).toBe(200);
    expect(names(resumed.json())).toEqual(['old-c']);
  });

  it('GETs at a resourceVersion: served when the store has it, 504 Too large when not', async () => {
    const created = (await send('POST', CM, cm('get-a', 'get'))).json();
    const rv = Number(created.metadata.resourceVersion);
    const at = await send('GET', `${CM}/get-a?resourceVersion=${rv}`);
    expect(at.status).toBe(200);
    expect(at.json().metadata.resourceVersion).toBe(String(rv));
    // An older resourceVersion is "not older than": today's object.
    expect(
      (
        await send('PATCH', `${CM}/get-a`, JSON.stringify({ data: { v: '2' } }), {
          'content-type': 'application/merge-patch+json',
        })
      ).status,
    ).toBe(200);
    const older = await send('GET', `${CM}/get-a?resourceVersion=${rv}`);
    expect(older.json().data).toEqual({ v: '2' });
    const future = rv + 1_000_000;
    const tooLarge = await send('GET', `${CM}/get-a?resourceVersion=${future}`);
    expect(tooLarge.status).toBe(504);
    expect(tooLarge.json()).toMatchObject({
      reason: 'Timeout',
      code: 504,
      details: {
        causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
        retryAfterSeconds: 1,
      },
    });
    expect(tooLarge.json().message).toMatch(
      new RegExp(`^Timeout: Too large resource version: ${future}, current: \\d+$`),
    );
    const exactFuture = await send('GET', `${CM}?resourceVersion=${future}&resourceVersionMatch=Exact`);
    expect(exactFuture.status).toBe(504);
    const bad = await send('GET', `${CM}/get-a?resourceVersion=abc`);
    expect(bad.status).toBe(400);
    expect(bad.json().message).toBe(
      'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
    );
  });

  it('rejects the option combinations kube rejects, with its messages and field paths', async () => {
    const invalid = async (query: string, causes: { reason: string; message: string }[]) => {
      const res = await send('GET', `${CM}?${query}`);
      expect(res.status, query).toBe(422);
      const status = res.json();
      expect(status).toMatchObject({
        kind: 'Status',
        status: 'Failure',
        reason: 'Invalid',
        code: 422,
        details: { group: 'meta.k8s.io', kind: 'ListOptions' },
      });
      expect(status.details.causes).toEqual(
        causes.map((c) => ({
          ...c,
          field:
            c.reason === 'FieldValueForbidden' && c.message.includes('sendInitialEvents is forbidden for list')
              ? 'sendInitialEvents'
              : 'resourceVersionMatch',
        })),
      );
      const parts = status.details.causes.map((c: any) => `${c.field}: ${c.message}`);
      expect(status.message).toBe(
        `ListOptions.meta.k8s.io "" is invalid: ${parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`}`,
      );
    };
    const forbidden = (detail: string) => ({ reason: 'FieldValueForbidden', message: `Forbidden: ${detail}` });
    await invalid('resourceVersionMatch=NotOlderThan', [
      forbidden('resourceVersionMatch is forbidden unless resourceVersion is provided'),
    ]);
    await invalid('resourceVersion=0&resourceVersionMatch=Exact', [
      forbidden('resourceVersionMatch "exact" is forbidden for resourceVersion "0"'),
    ]);
    await invalid('resourceVersion=1&resourceVersionMatch=Exact&continue=abc', [
      forbidden('resourceVersionMatch is forbidden when continue is provided'),
    ]);
    await invalid('resourceVersion=1&resourceVersionMatch=Newest', [
      {
        reason: 'FieldValueNotSupported',
        message: 'Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""',
      },
    ]);
    await invalid('resourceVersionMatch=Bogus&continue=abc', [
      forbidden('resourceVersionMatch is forbidden unless resourceVersion is provided'),
      forbidden('resourceVersionMatch is forbidden when continue is provided'),
      {
        reason: 'FieldValueNotSupported',
        message: 'Unsupported value: "Bogus": supported values: "Exact", "NotOlderThan", ""',
      },
    ]);
    await invalid('sendInitialEvents=true', [forbidden('sendInitialEvents is forbidden for list')]);
    // Watches.
    await invalid('watch=true&resourceVersionMatch=NotOlderThan', [
      forbidden('resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'),
    ]);
    await invalid('watch=true&sendInitialEvents=true', [
      forbidden('sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'),
    ]);
    await invalid('watch=true&sendInitialEvents=true&resourceVersionMatch=Exact', [
      forbidden('sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'),
      { reason: 'FieldValueNotSupported', message: 'Unsupported value: "Exact": supported values: "NotOlderThan"' },
    ]);
    // A resourceVersion with a continue token: kube's storage answers 400.
    const first = (await send('GET', `${CM}?limit=1`)).json();
    expect(first.metadata.continue).toBeTruthy();
    const withRv = await send(
      'GET',
      `${CM}?limit=1&resourceVersion=${first.metadata.resourceVersion}&continue=${first.metadata.continue}`,
    );
    expect(withRv.status).toBe(400);
    expect(withRv.json()).toMatchObject({
      reason: 'BadRequest',
      code: 400,
      message: 'specifying resource version is not allowed when using continue',
    });
    // "0" with a continue token is allowed, as in kube.
    expect((await send('GET', `${CM}?limit=1&resourceVersion=0&continue=${first.metadata.continue}`)).status).toBe(200);
  });
});

describe('resourceVersion semantics (etcd with the watch cache)', () => {
  let etcd: EtcdProcess | undefined;
  let server: LocalApiServer | undefined;
  let send: ReturnType<typeof rawClient>['send'];
  beforeAll(async () => {
    etcd = await startEtcd();
  });
  afterAll(async () => {
    await server?.stop();
    await etcd?.stop();
  });

  it('GET at the next resourceVersion waits for the write that makes it', async () => {
    server = await LocalApiServer.start({ storage: 'etcd', etcdServers: [etcd!.endpoint] });
    ({ send } = rawClient(server));
    const created = (await send('POST', CM, cm('wait-a', 'wait'))).json();
    const next = Number(created.metadata.resourceVersion) + 1;
    const waiting = send('GET', `${CM}/wait-a?resourceVersion=${next}`);
    const patched = await send('PATCH', `${CM}/wait-a`, JSON.stringify({ data: { v: 'new' } }), {
      'content-type': 'application/merge-patch+json',
    });
    expect(patched.status).toBe(200);
    expect(Number(patched.json().metadata.resourceVersion)).toBe(next);
    const got = await waiting;
    expect(got.status).toBe(200);
    expect(got.json().data).toEqual({ v: 'new' });
  }, 60_000);

  it('lists exactly at a revision from before the cache (from etcd), and answers 410 once etcd compacted it', async () => {
    await server?.stop();
    server = await LocalApiServer.start({ storage: 'etcd', etcdServers: [etcd!.endpoint] });
    ({ send } = rawClient(server));
    const rv = await scenario(send, 'etcd');
    // A new server: its cache starts after `rv`, so etcd answers the Exact list.
    await server.stop();
    server = await LocalApiServer.start({ storage: 'etcd', etcdServers: [etcd!.endpoint] });
    ({ send } = rawClient(server));
    const sel = 'labelSelector=rvtest%3Detcd';
    const exact = await send('GET', `${CM}?${sel}&resourceVersion=${rv}&resourceVersionMatch=Exact`);
    expect(exact.status).toBe(200);
    expect(names(exact.json())).toEqual(['etcd-a', 'etcd-b']);
    expect(exact.json().metadata.resourceVersion).toBe(rv);
    const latest = (await send('GET', `${CM}?${sel}`)).json();
    expect(names(latest)).toEqual(['etcd-b', 'etcd-c']);
    await (server.storage as unknown as { compact(revision: number): Promise<void> }).compact(
      Number(latest.metadata.resourceVersion),
    );
    const expired = await send('GET', `${CM}?${sel}&resourceVersion=${rv}&resourceVersionMatch=Exact`);
    expect(expired.status).toBe(410);
    expect(expired.json()).toMatchObject({
      reason: 'Expired',
      code: 410,
      message: 'The resourceVersion for the provided list is too old.',
    });
  }, 60_000);
});
