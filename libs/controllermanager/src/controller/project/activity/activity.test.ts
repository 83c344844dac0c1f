// Tests of the `project-activity` controller: which events count as activity (the predicates as its watches combine
// them) and the reconciler's status update with an injected clock.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Project } from '@gardener-ts/api';
import { generationChanged, type KubernetesObject, type ObjectEvent } from '@gardener-ts/controller-runtime';
import { silentContext } from '../../../../test/support/csr.js';
import { FakeGarden } from '../../testing/fake-garden.js';
import { bindingReferenced, NewlyCreatedMs, onlyNewlyCreated } from './add.js';
import { ProjectActivityReconciler } from './reconciler.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const obj = (labels: Record<string, string> = {}, createdAgoMs = 0, generation = 1): KubernetesObject => ({
  kind: 'Shoot',
  metadata: {
    namespace: 'garden-foo',
    name: 'x',
    labels,
    generation,
    creationTimestamp: new Date(NOW - createdAgoMs).toISOString(),
  },
});
const all = (predicates: ((e: ObjectEvent<KubernetesObject>) => boolean)[]) => (e: ObjectEvent<KubernetesObject>) =>
  predicates.every((p) => p(e));

describe('activity predicates', () => {
  const newly = onlyNewlyCreated(() => NOW);
  const shootEvents = all([newly, generationChanged]);
  const secretEvents = all([newly, bindingReferenced]);
  const sb = { 'reference.gardener.cloud/secretbinding': 'true' };
  const cb = { 'reference.gardener.cloud/credentialsbinding': 'true' };

  it('counts Shoots and BackupEntries created within the hour, spec changes and deletions', () => {
    expect(shootEvents({ type: 'create', object: obj({}, NewlyCreatedMs) })).toBe(true);
    expect(shootEvents({ type: 'create', object: obj({}, NewlyCreatedMs + 1000) })).toBe(false);
    expect(shootEvents({ type: 'update', oldObject: obj({}, 0, 1), object: obj({}, 0, 2) })).toBe(true);
    expect(shootEvents({ type: 'update', oldObject: obj({}, 0, 1), object: obj({ a: 'b' }, 0, 1) })).toBe(false);
    expect(shootEvents({ type: 'delete', object: obj({}, 10 * NewlyCreatedMs) })).toBe(true);
  });

  it('counts Secrets and Quotas only with a binding reference label, before or after an update', () => {
    expect(secretEvents({ type: 'create', object: obj(sb) })).toBe(true);
    expect(secretEvents({ type: 'create', object: obj(cb) })).toBe(true);
    expect(secretEvents({ type: 'create', object: obj() })).toBe(false);
    expect(secretEvents({ type: 'create', object: obj(sb, 2 * NewlyCreatedMs) })).toBe(false);
    expect(secretEvents({ type: 'update', oldObject: obj(sb), object: obj() })).toBe(true);
    expect(secretEvents({ type: 'update', oldObject: obj(), object: obj(cb) })).toBe(true);
    expect(secretEvents({ type: 'update', oldObject: obj(), object: obj() })).toBe(false);
    expect(secretEvents({ type: 'delete', object: obj(cb, 10 * NewlyCreatedMs) })).toBe(true);
    expect(secretEvents({ type: 'delete', object: obj() })).toBe(false);
  });

  it('property: a create passes the age filter iff the object is at most an hour old', () => {
    fc.assert(
      fc.property(fc.integer({ min: -NewlyCreatedMs, max: 5 * NewlyCreatedMs }), (ago) => {
        const agoSeconds = Math.floor(ago / 1000) * 1000;
        expect(newly({ type: 'create', object: obj({}, agoSeconds) })).toBe(agoSeconds <= NewlyCreatedMs);
      }),
    );
  });
});

describe('ProjectActivityReconciler', () => {
  it('sets status.lastActivityTimestamp to now and ignores a project that is gone', async () => {
    const garden = new FakeGarden({
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'Project',
      metadata: { name: 'foo' },
      status: { phase: 'Ready', lastActivityTimestamp: '2026-01-01T00:00:00Z' },
    } as KubernetesObject);
    const reconciler = new ProjectActivityReconciler({ client: garden as never, now: () => NOW + 700 });
    await reconciler.reconcile({ namespace: '', name: 'foo' }, silentContext());
    expect(garden.find<Project>('Project', '', 'foo')?.status).toEqual({
      phase: 'Ready',
      lastActivityTimestamp: '2026-03-01T12:00:00Z',
    });
    expect(garden.writes).toEqual(['patch/status Project /foo']);
    await reconciler.reconcile({ namespace: '', name: 'bar' }, silentContext());
    expect(garden.writes).toHaveLength(1);
  });
});
