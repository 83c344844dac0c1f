import { describe, expect, it } from 'vitest';
import { rootCAConfigMapRequests } from './add.js';

describe('rootCAConfigMapRequests', () => {
  it('maps the root CA ConfigMap to its namespace and ignores every other ConfigMap', () => {
    expect(rootCAConfigMapRequests({ metadata: { namespace: 'shoot--a--b', name: 'kube-root-ca.crt' } })).toEqual([
      { namespace: '', name: 'shoot--a--b' },
    ]);
    expect(rootCAConfigMapRequests({ metadata: { namespace: 'shoot--a--b', name: 'cluster-info' } })).toEqual([]);
    expect(rootCAConfigMapRequests({ metadata: { name: 'kube-root-ca.crt' } })).toEqual([]);
  });
});
