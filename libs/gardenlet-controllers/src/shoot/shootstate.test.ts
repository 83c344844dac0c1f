// The ShootState's pure core: what the source seed writes is what the destination reads back — persisted secrets with
// their names, labels and data, each extension resource's state and resources by kind/name/purpose, and the objects
// they reference — and the merge into an existing ShootState upserts (property tests over arbitrary contents).
import type { KubernetesObject, Secret } from '@gardener-ts/controller-runtime';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  extensionStateFor,
  extensionStatesOf,
  gardenerDataOf,
  mergeShootStateSpec,
  persistedSecretsOf,
  referencedObjectsFor,
  resourceDataOf,
  type ExtensionObjectView,
  type ShootStateSpec,
} from './shootstate.js';

const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/);
const base64 = fc.uint8Array({ maxLength: 24 }).map((b) => Buffer.from(b).toString('base64'));
// As the API server stores it: JSON (no -0, which JSON writes as 0).
const json: fc.Arbitrary<unknown> = fc
  .jsonValue()
  .map((v) => JSON.parse(JSON.stringify(v)) as unknown)
  .filter((v) => v !== null);

/** A secret of the secrets manager, persisted or not. */
const managedSecret = fc.record({
  name,
  persist: fc.boolean(),
  data: fc.dictionary(fc.constantFrom('ca.crt', 'ca.key', 'tls.crt', 'tls.key', 'id_rsa', 'secret'), base64),
  extra: fc.dictionary(fc.constantFrom('name', 'manager-identity', 'issued-at-time'), name),
});

interface ManagedSecret {
  name: string;
  persist: boolean;
  data: Record<string, string>;
  extra: Record<string, string>;
}

function secretOf(s: ManagedSecret): Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: s.name,
      namespace: 'shoot--a--b',
      uid: 'u',
      resourceVersion: '7',
      labels: { ...s.extra, 'managed-by': 'secrets-manager', ...(s.persist ? { persist: 'true' } : {}) },
    },
    data: s.data,
  };
}

const extensionObject = fc.record({
  name,
  purpose: fc.option(fc.constantFrom('normal', 'exposure'), { nil: undefined }),
  state: fc.option(json, { nil: undefined }),
  resources: fc.array(name, { maxLength: 2 }),
  deleting: fc.boolean(),
});

describe('ShootState', () => {
  it('what the source writes is what the restore reads (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(managedSecret, { selector: (s) => s.name, maxLength: 6 }),
        fc.uniqueArray(extensionObject, { selector: (o) => o.name, maxLength: 5 }),
        (secrets, objects) => {
          const views: ExtensionObjectView[] = objects.map((o) => ({
            apiVersion: 'extensions.gardener.cloud/v1alpha1',
            kind: 'Infrastructure',
            metadata: { name: o.name, ...(o.deleting ? { deletionTimestamp: '2026-11-29T10:00:00Z' } : {}) },
            spec: o.purpose ? { purpose: o.purpose } : {},
            status: {
              ...(o.state !== undefined ? { state: o.state } : {}),
              resources: o.resources.map((r) => ({
                name: r,
                resourceRef: { apiVersion: 'v1', kind: 'Secret', name: `${o.name}-${r}` },
              })),
            },
          }));
          const { states, references } = extensionStatesOf('Infrastructure', views);
          const spec: ShootStateSpec = {
            gardener: gardenerDataOf(secrets.map(secretOf)),
            extensions: states,
            resources: references.map((ref) =>
              resourceDataOf(ref, {
                apiVersion: 'v1',
                kind: 'Secret',
                metadata: { name: ref.name, uid: 'x', resourceVersion: '1', labels: { a: 'b' } },
                data: { k: 'dg==' },
              } as KubernetesObject),
            ),
          };
          // A JSON round trip: the ShootState goes through the garden's API server.
          const stored = JSON.parse(JSON.stringify(spec)) as ShootStateSpec;

          const restored = persistedSecretsOf(stored, 'shoot--x--b');
          const persisted = secrets.filter((s) => s.persist);
          expect(restored.map((s) => s.metadata?.name)).toEqual(persisted.map((s) => s.name));
          for (const [i, s] of persisted.entries()) {
            expect(restored[i]!.data).toEqual(s.data);
            expect(restored[i]!.metadata).toEqual({
              name: s.name,
              namespace: 'shoot--x--b',
              labels: secretOf(s).metadata!.labels,
            });
            expect(restored[i]!.immutable).toBe(true);
          }

          for (const o of objects) {
            const state = extensionStateFor(stored, 'Infrastructure', o.name, o.purpose);
            const kept = !o.deleting && (o.state !== undefined || o.resources.length > 0);
            if (!kept) {
              expect(state).toBeUndefined();
              continue;
            }
            expect(state?.state).toEqual(o.state);
            expect(state?.resources?.map((r) => r.name) ?? []).toEqual(o.resources);
            const refs = referencedObjectsFor(stored, state!, 'shoot--x--b');
            expect(refs.map((r) => r.metadata?.name)).toEqual(o.resources.map((r) => `${o.name}-${r}`));
            for (const ref of refs) {
              expect(ref.metadata).toEqual({ name: ref.metadata?.name, namespace: 'shoot--x--b', labels: { a: 'b' } });
              expect((ref as { data?: unknown }).data).toEqual({ k: 'dg==' });
            }
          }
        },
      ),
    );
  });

  it('keeps only persisted secrets and only extension resources with state', () => {
    const secrets = [
      secretOf({ name: 'ca', persist: true, data: { 'ca.crt': 'Yw==' }, extra: {} }),
      secretOf({ name: 'kube-apiserver', persist: false, data: { 'tls.crt': 'dA==' }, extra: {} }),
    ];
    expect(gardenerDataOf(secrets).map((d) => [d.name, d.type])).toEqual([['ca', 'secret']]);
    const { states } = extensionStatesOf('Worker', [
      { metadata: { name: 'stateless' }, status: {} },
      { metadata: { name: 'stateful' }, status: { state: { machines: 1 } } },
    ]);
    expect(states).toEqual([{ kind: 'Worker', name: 'stateful', state: { machines: 1 } }]);
    // Only secrets of the secrets manager are created again.
    const spec: ShootStateSpec = { gardener: [{ name: 'machine-state', type: 'machine-state', data: {} }] };
    expect(persistedSecretsOf(spec, 'ns')).toEqual([]);
  });

  it('upserts into an existing ShootState by name, kind/name/purpose and reference (property)', () => {
    const entry = fc.record({ name: fc.constantFrom('a', 'b', 'c'), value: fc.nat() });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 5 }), fc.array(entry, { maxLength: 5 }), (before, after) => {
        const toSpec = (entries: { name: string; value: number }[]): ShootStateSpec => ({
          gardener: entries.map((e) => ({ name: e.name, type: 'secret', data: { v: String(e.value) } })),
          extensions: entries.map((e) => ({ kind: 'Extension', name: e.name, state: e.value })),
        });
        const dedupe = (entries: { name: string; value: number }[]) => [
          ...new Map(entries.map((e) => [e.name, e])).values(),
        ];
        const merged = mergeShootStateSpec(toSpec(dedupe(before)), toSpec(dedupe(after)));
        const expected = new Map(dedupe(before).map((e) => [e.name, e.value]));
        for (const e of dedupe(after)) expected.set(e.name, e.value);
        expect(new Map((merged.gardener ?? []).map((d) => [d.name, Number((d.data as { v: string }).v)]))).toEqual(
          expected,
        );
        expect(new Map((merged.extensions ?? []).map((x) => [x.name, x.state]))).toEqual(expected);
        // Merging the same content again changes nothing.
        expect(mergeShootStateSpec(merged, toSpec(dedupe(after)))).toEqual(merged);
      }),
    );
  });
});
