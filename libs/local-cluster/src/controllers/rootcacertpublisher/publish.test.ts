import type { ConfigMap } from '@gardener-ts/controller-runtime';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DESCRIPTION,
  DESCRIPTION_ANNOTATION,
  namespaceActive,
  planRootCAConfigMap,
  ROOT_CA_CONFIGMAP,
  ROOT_CA_KEY,
} from './publish.js';

const CA = '-----BEGIN CERTIFICATE-----\nshoot-ca\n-----END CERTIFICATE-----\n';
const OTHER_CA = '-----BEGIN CERTIFICATE-----\nsubstrate-ca\n-----END CERTIFICATE-----\n';

function existing(data: Record<string, string> | undefined, annotations?: Record<string, string>): ConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: ROOT_CA_CONFIGMAP, namespace: 'garden', resourceVersion: '42', uid: 'u1', annotations },
    data,
  };
}

describe('planRootCAConfigMap', () => {
  it('creates the ConfigMap with the CA and the description when there is none', () => {
    expect(planRootCAConfigMap('garden', CA, undefined)).toEqual({
      kind: 'create',
      configMap: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: ROOT_CA_CONFIGMAP,
          namespace: 'garden',
          annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION },
        },
        data: { [ROOT_CA_KEY]: CA },
      },
    });
  });

  it('leaves a ConfigMap alone that holds exactly the CA and has a description (whatever its text)', () => {
    expect(planRootCAConfigMap('garden', CA, existing({ 'ca.crt': CA }, { [DESCRIPTION_ANNOTATION]: 'x' }))).toEqual({
      kind: 'none',
    });
  });

  it('replaces another CA (the API server published its own), keeping the object and its resourceVersion', () => {
    const plan = planRootCAConfigMap('garden', CA, existing({ 'ca.crt': OTHER_CA }, { [DESCRIPTION_ANNOTATION]: 'x' }));
    expect(plan).toMatchObject({
      kind: 'update',
      configMap: {
        metadata: { resourceVersion: '42', uid: 'u1', annotations: { [DESCRIPTION_ANNOTATION]: 'x' } },
        data: { 'ca.crt': CA },
      },
    });
  });

  it('drops keys other than ca.crt and adds a missing or empty description', () => {
    for (const annotations of [undefined, { [DESCRIPTION_ANNOTATION]: '' }, { other: 'kept' }] as (
      Record<string, string> | undefined
    )[]) {
      const plan = planRootCAConfigMap('garden', CA, existing({ 'ca.crt': CA, extra: 'y' }, annotations));
      expect(plan.kind).toBe('update');
      if (plan.kind !== 'update') continue;
      expect(plan.configMap.data).toEqual({ 'ca.crt': CA });
      expect(plan.configMap.metadata?.annotations).toEqual({ ...annotations, [DESCRIPTION_ANNOTATION]: DESCRIPTION });
    }
    expect(planRootCAConfigMap('garden', CA, existing({ 'ca.crt': CA }, undefined)).kind).toBe('update');
    expect(planRootCAConfigMap('garden', CA, existing(undefined, { [DESCRIPTION_ANNOTATION]: 'x' })).kind).toBe(
      'update',
    );
  });

  it('converges: what it writes, planned again, needs nothing; and it needs nothing only when data is exactly the CA', () => {
    const data = fc.option(fc.dictionary(fc.constantFrom('ca.crt', 'extra', 'other'), fc.string()), {
      nil: undefined,
    });
    const annotations = fc.option(fc.dictionary(fc.constantFrom(DESCRIPTION_ANNOTATION, 'other'), fc.string()), {
      nil: undefined,
    });
    fc.assert(
      fc.property(fc.boolean(), data, annotations, fc.string({ minLength: 1 }), (exists, d, a, ca) => {
        const before = exists ? existing(d, a) : undefined;
        const plan = planRootCAConfigMap('garden', ca, before);
        const upToDate =
          !!before &&
          Object.keys(d ?? {}).length === 1 &&
          d?.['ca.crt'] === ca &&
          (a?.[DESCRIPTION_ANNOTATION] ?? '') !== '';
        expect(plan.kind === 'none').toBe(upToDate);
        if (plan.kind === 'none') return;
        expect(plan.configMap.data).toEqual({ 'ca.crt': ca });
        expect(planRootCAConfigMap('garden', ca, plan.configMap)).toEqual({ kind: 'none' });
        // Annotations it does not own survive.
        if (before && a?.other !== undefined) expect(plan.configMap.metadata?.annotations?.other).toBe(a.other);
      }),
    );
  });
});

describe('namespaceActive', () => {
  it('is false for a namespace being deleted or Terminating', () => {
    expect(namespaceActive({ metadata: {}, status: { phase: 'Active' } })).toBe(true);
    expect(namespaceActive({})).toBe(true);
    expect(namespaceActive({ metadata: { deletionTimestamp: '2026-01-01T00:00:00Z' } })).toBe(false);
    expect(namespaceActive({ status: { phase: 'Terminating' } })).toBe(false);
  });
});
