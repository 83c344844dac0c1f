import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@gardener-ts/controller-runtime';
import { ControllerInstallationRequiredReconciler } from './reconciler.js';
import { requiredBy, requiredConditions } from './required.js';

const clock = { now: () => new Date('2026-01-01T00:00:00Z') };

describe('Required', () => {
  it('is True while extension objects of the registration exist, naming them', () => {
    const resources = [
      { kind: 'Extension', type: 'my-extension' },
      { kind: 'Worker', type: 'local' },
    ];
    const required = requiredBy(resources, [
      { kind: 'Extension', spec: { type: 'my-extension' } },
      { kind: 'Extension', spec: { type: 'other' } },
      { kind: 'Infrastructure', spec: { type: 'local' } },
    ]);
    expect(required).toEqual(['Extension/my-extension']);
    expect(requiredConditions(undefined, required, clock)).toEqual([
      expect.objectContaining({
        type: 'Required',
        status: 'True',
        reason: 'ExtensionObjectsExist',
        message: 'Extension objects still exist in the seed: Extension/my-extension',
      }),
    ]);
    expect(requiredConditions(undefined, [], clock)).toEqual([
      expect.objectContaining({ type: 'Required', status: 'False', reason: 'NoExtensionObjects' }),
    ]);
  });

  it('is required exactly when some object matches a resource of the registration (property)', () => {
    const kindType = fc.record({
      kind: fc.constantFrom('Extension', 'Worker', 'Network'),
      type: fc.constantFrom('a', 'b', 'c'),
    });
    fc.assert(
      fc.property(fc.array(kindType), fc.array(kindType), (resources, objs) => {
        const objects = objs.map((o) => ({ kind: o.kind, spec: { type: o.type } }));
        const expected = resources.some((r) => objs.some((o) => o.kind === r.kind && o.type === r.type));
        expect(requiredBy(resources, objects).length > 0).toBe(expected);
      }),
    );
  });

  it('the reconciler lists the kinds of the registration in the seed and writes the condition', async () => {
    const ci: any = {
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'ControllerInstallation',
      metadata: { name: 'ci' },
      spec: { registrationRef: { name: 'reg' }, seedRef: { name: 'local' } },
    };
    const reg = {
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'ControllerRegistration',
      metadata: { name: 'reg' },
      spec: {
        resources: [
          { kind: 'Extension', type: 'x' },
          { kind: 'NotAnExtensionKind', type: 'x' },
        ],
      },
    };
    const listed: string[] = [];
    const garden = {
      async get(k: { kind: string }) {
        if (k.kind === 'ControllerInstallation') return structuredClone(ci);
        if (k.kind === 'ControllerRegistration') return reg;
        throw new ApiError(404, 'NotFound', 'nope');
      },
      async patch(_k: unknown, _key: unknown, p: { patch: any }) {
        ci.status = p.patch.status;
        return ci;
      },
    };
    const seed = {
      async get(): Promise<never> {
        throw new Error('unused');
      },
      async list(k: { kind: string }) {
        listed.push(k.kind);
        return { items: [{ metadata: { name: 'e', namespace: 'shoot--a--b' }, spec: { type: 'x' } }] };
      },
    };
    const r = new ControllerInstallationRequiredReconciler({
      garden: garden as never,
      seed: seed as never,
      seedName: 'local',
      clock,
    });
    await r.reconcile({ namespace: '', name: 'ci' });
    expect(listed).toEqual(['Extension']);
    expect(ci.status.conditions).toEqual([expect.objectContaining({ type: 'Required', status: 'True' })]);
  });
});
