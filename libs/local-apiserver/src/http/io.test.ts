// The hot-path shortcuts answer exactly what the plain code would: cached JSON of frozen objects and lists, and
// request URLs split without the URL parser.
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../storage/objects.js';
import { requestUrl } from './handler.js';
import { sendJson, sendJsonList } from './io.js';

function capture(): {
  res: ServerResponse;
  sent: () => { status: number; headers: Record<string, unknown>; body: string };
} {
  let status = 0;
  let headers: Record<string, unknown> = {};
  let body = '';
  const res = {
    writeHead: (s: number, h: Record<string, unknown>) => {
      status = s;
      headers = h;
    },
    end: (text: string) => {
      body = text;
    },
  } as unknown as ServerResponse;
  return { res, sent: () => ({ status, headers, body }) };
}

describe('cached JSON', () => {
  it('sends a frozen object as JSON.stringify would, also the second time', () => {
    const object = deepFreeze({ kind: 'ConfigMap', metadata: { name: 'ü', resourceVersion: '5' }, data: { a: 'x"y' } });
    for (let i = 0; i < 2; i++) {
      const { res, sent } = capture();
      sendJson(res, 200, object);
      expect(sent().body).toBe(JSON.stringify(object));
      expect(sent().headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify(object))));
    }
  });

  it('sends lists as JSON.stringify would', () => {
    const items = [deepFreeze({ metadata: { name: 'a' } }), { metadata: { name: 'b' }, x: undefined }];
    const lists: Record<string, unknown>[] = [
      { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '7', continue: undefined }, items },
      { kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: [] },
      { items },
      { items, kind: 'NotLast' },
      { kind: 'X', items: [1, null] },
    ];
    for (const list of lists) {
      for (let i = 0; i < 2; i++) {
        const { res, sent } = capture();
        sendJsonList(res, 200, list);
        expect(sent().body).toBe(JSON.stringify(list));
        expect(sent().headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify(list))));
      }
    }
  });
});

describe('requestUrl', () => {
  it('splits paths and queries like new URL', () => {
    const targets = [
      '/',
      '/api/v1/namespaces/default/configmaps/cm-1',
      '/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=5&fieldSelector=metadata.name%3Dcm-0',
      '/api/v1/namespaces/default/configmaps?labelSelector=a+in+(b,c)&x=%20y',
      '/api/v1/namespaces/default/../kube-system/pods',
      '/api/v1/namespaces/default/pods/a%2Fb',
      '/apis/apps/v1/namespaces/x/deployments/d?dryRun=All&fieldManager=kubectl-client-side-apply',
      '/api/v1/pods?q=a b',
      '/api/v1/pods?q=ä',
      '/api/v1/pods#frag',
      '/api/v1/pods/./x',
      '/api\\v1',
      '/api/v1/pods?',
      '/openapi/v3/apis/apps/v1?hash=ABC',
      '/apis/core.gardener.cloud/v1beta1/namespaces/garden/shoots/a.b',
      '/api/v1/pods/..',
      '/api/v1/pods/.',
      '/api/v1/pods/.../x',
      '/api/v1/pods/.x/..y',
      '/api/v1/pods/%2e%2e/x',
      '/api/v1//pods',
    ];
    for (const target of targets) {
      const expected = new URL(target, 'https://local');
      const got = requestUrl(target);
      expect(got.pathname, target).toBe(expected.pathname);
      expect([...got.searchParams], target).toEqual([...expected.searchParams]);
    }
    expect(requestUrl(undefined).pathname).toBe('/');
  });
});
