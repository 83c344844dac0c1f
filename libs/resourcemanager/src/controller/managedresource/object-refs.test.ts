import { describe, expect, it } from 'vitest';
import { describeObject, mapLimit, sameReferences, sortReferences } from './object-refs.js';

describe('object references', () => {
  it('are named apiVersion/Kind/namespace/name, without an empty namespace', () => {
    expect(describeObject({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'ns', name: 'web' })).toBe(
      'apps/v1/Deployment/ns/web',
    );
    expect(describeObject({ apiVersion: 'v1', kind: 'Namespace', name: 'ns' })).toBe('v1/Namespace/ns');
  });

  it('sort by apiVersion, kind, namespace, name', () => {
    const refs = [
      { apiVersion: 'v1', kind: 'Secret', namespace: 'a', name: 'x' },
      { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'b', name: 'y' },
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'a', name: 'z' },
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'a', name: 'b' },
    ];
    expect(sortReferences(refs).map((r) => r.name)).toEqual(['y', 'b', 'z', 'x']);
  });

  it('compare equal regardless of label order and empty maps', () => {
    const a = [
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'c', namespace: 'n', labels: { a: '1', b: '2' }, annotations: {} },
    ];
    const b = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'c', namespace: 'n', labels: { b: '2', a: '1' } }];
    expect(sameReferences(a, b)).toBe(true);
    expect(sameReferences(a, [{ ...b[0], labels: { a: '1' } }])).toBe(false);
    expect(sameReferences(undefined, [])).toBe(true);
  });

  it('mapLimit keeps order and never runs more than the limit at once', async () => {
    let running = 0;
    let peak = 0;
    const out = await mapLimit([5, 1, 4, 2, 3], 2, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, n));
      running--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30]);
    expect(peak).toBe(2);
  });
});
