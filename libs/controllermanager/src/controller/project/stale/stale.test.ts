// Tests of the `project-stale` controller: the date rules (`staleness.ts`, with properties), the usage rules
// (`usage.ts`), the predicate, and the reconciler against an in-memory garden with an injected clock.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { CredentialsBinding, Project, SecretBinding, Shoot } from '@gardener-ts/api';
import { controllerManagerConfigSpec } from '@gardener-ts/component-config';
import type { KubernetesObject } from '@gardener-ts/controller-runtime';
import { controllerRegistry } from '../../add.js';
import { silentContext } from '../../../../test/support/csr.js';
import { FakeGarden } from '../../testing/fake-garden.js';
import { projectPredicate } from './add.js';
import { ProjectStaleReconciler } from './reconciler.js';
import {
  autoDeleteDue,
  DayMs,
  formatTime,
  notStaleReason,
  staleStatus,
  staleStatusPatch,
  type StaleSettings,
} from './staleness.js';
import {
  bindingsOfQuotas,
  credentialsBindingsOf,
  secretBindingsOfSecrets,
  skipsStaleCheck,
  uncontrolledSecretSelector,
  usedByShoots,
} from './usage.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const day = (n: number) => T0 + n * DayMs;
const settings: StaleSettings = { minimumLifetimeDays: 5, staleGracePeriodDays: 10, staleExpirationTimeDays: 15 };

describe('staleness', () => {
  it('formats times as metav1.Time does: UTC, whole seconds', () => {
    expect(formatTime(T0 + 1999)).toBe('2026-01-01T00:00:01Z');
  });

  it('does not check projects younger than minimumLifetimeDays or active within them', () => {
    const p = (created: number, activity?: number) => ({
      metadata: { creationTimestamp: formatTime(created) },
      status: activity === undefined ? undefined : { lastActivityTimestamp: formatTime(activity) },
    });
    expect(notStaleReason(p(day(0)), day(4), 5)).toBe('minimum-lifetime');
    // Exactly at the end of the lifetime the project is checked (Gardener's strict "after").
    expect(notStaleReason(p(day(0)), day(5), 5)).toBeUndefined();
    expect(notStaleReason(p(day(0), day(3)), day(7), 5)).toBe('recent-activity');
    expect(notStaleReason(p(day(0), day(2)), day(7), 5)).toBeUndefined();
  });

  it('marks stale now, sets the auto-delete date only after the grace period, and deletes when it is reached', () => {
    const first = staleStatus(undefined, day(0) + 500, settings);
    expect(first).toEqual({ staleSinceTimestamp: formatTime(day(0)) });
    expect(staleStatus(first, day(9), settings)).toEqual(first);
    const after = staleStatus(first, day(10), settings);
    expect(after).toEqual({ staleSinceTimestamp: formatTime(day(0)), staleAutoDeleteTimestamp: formatTime(day(15)) });
    expect(autoDeleteDue(after, day(15) - 1)).toBe(false);
    expect(autoDeleteDue(after, day(15))).toBe(true);
    expect(autoDeleteDue(first, day(100))).toBe(false);
  });

  it('drops an auto-delete date within the grace period and never moves one earlier', () => {
    const since = formatTime(day(0));
    expect(
      staleStatus({ staleSinceTimestamp: since, staleAutoDeleteTimestamp: formatTime(day(1)) }, day(5), settings),
    ).toEqual({ staleSinceTimestamp: since });
    const later = formatTime(day(40));
    expect(staleStatus({ staleSinceTimestamp: since, staleAutoDeleteTimestamp: later }, day(11), settings)).toEqual({
      staleSinceTimestamp: since,
      staleAutoDeleteTimestamp: later,
    });
    expect(
      staleStatus({ staleSinceTimestamp: since, staleAutoDeleteTimestamp: formatTime(day(12)) }, day(11), settings),
    ).toEqual({ staleSinceTimestamp: since, staleAutoDeleteTimestamp: formatTime(day(15)) });
  });

  it('property: the stale date is kept, the auto-delete date exists iff the grace period is over and is never earlier than before', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 200 * DayMs }),
        fc.integer({ min: 0, max: 100 * DayMs }),
        fc.option(fc.integer({ min: 0, max: 400 * DayMs }), { nil: undefined }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 120 }),
        (sinceOffset, elapsed, existingAutoDelete, grace, expiration) => {
          const s = { minimumLifetimeDays: 0, staleGracePeriodDays: grace, staleExpirationTimeDays: expiration };
          const since = Math.floor((T0 + sinceOffset) / 1000) * 1000;
          const now = since + elapsed;
          const current = {
            staleSinceTimestamp: formatTime(since),
            staleAutoDeleteTimestamp:
              existingAutoDelete === undefined ? undefined : formatTime(T0 + existingAutoDelete),
          };
          const next = staleStatus(current, now, s);
          expect(next.staleSinceTimestamp).toBe(current.staleSinceTimestamp);
          expect(next.staleAutoDeleteTimestamp !== undefined).toBe(elapsed >= grace * DayMs);
          if (next.staleAutoDeleteTimestamp) {
            const at = Date.parse(next.staleAutoDeleteTimestamp);
            expect(at).toBeGreaterThanOrEqual(since + expiration * DayMs);
            if (current.staleAutoDeleteTimestamp)
              expect(at).toBeGreaterThanOrEqual(Date.parse(current.staleAutoDeleteTimestamp));
          }
          // Applying the rules again at the same time changes nothing.
          expect(staleStatusPatch(next, staleStatus(next, now, s))).toBeUndefined();
        },
      ),
    );
  });

  it('patches only what changed, clearing with null', () => {
    expect(staleStatusPatch(undefined, {})).toBeUndefined();
    expect(staleStatusPatch({ staleSinceTimestamp: 'a' }, {})).toEqual({
      staleSinceTimestamp: null,
      staleAutoDeleteTimestamp: null,
    });
  });
});

describe('usage rules', () => {
  it("skips the check for namespaces annotated true as Go's ParseBool reads it", () => {
    const ns = (v?: string) => ({
      metadata: {
        annotations: (v === undefined ? {} : { 'project.gardener.cloud/skip-stale-check': v }) as Record<
          string,
          string
        >,
      },
    });
    for (const v of ['true', 'True', 'TRUE', 't', 'T', '1']) expect(skipsStaleCheck(ns(v))).toBe(true);
    for (const v of [undefined, 'false', 'yes', '', '0']) expect(skipsStaleCheck(ns(v))).toBe(false);
  });

  it('selects user-managed secrets with the reference label', () => {
    expect(uncontrolledSecretSelector('reference.gardener.cloud/secretbinding')).toBe(
      'gardener.cloud/role notin (kubeconfig,ssh-keypair,monitoring),reference.gardener.cloud/secretbinding=true',
    );
  });

  const sb = (ns: string, name: string, secret: { namespace: string; name: string }, quotas: string[][] = []) =>
    ({
      metadata: { namespace: ns, name },
      secretRef: secret,
      quotas: quotas.map(([namespace, n]) => ({ namespace, name: n })),
    }) as SecretBinding;
  const cb = (ns: string, name: string, ref: Partial<CredentialsBinding['credentialsRef']>) =>
    ({ metadata: { namespace: ns, name }, credentialsRef: ref }) as CredentialsBinding;

  it('finds the bindings of any namespace that reference the project namespace', () => {
    const bindings = [
      sb('other', 'b1', { namespace: 'garden-foo', name: 's' }),
      sb('other', 'b2', { namespace: 'garden-foo', name: 'unrelated' }),
      sb('third', 'b3', { namespace: 'garden-bar', name: 's' }),
      sb('garden-foo', 'b4', { namespace: 'garden-foo', name: 's' }),
    ];
    expect(secretBindingsOfSecrets('garden-foo', new Set(['s']), bindings)).toEqual(
      new Map([
        ['other', new Set(['b1'])],
        ['garden-foo', new Set(['b4'])],
      ]),
    );
    const creds = [
      cb('other', 'c1', { apiVersion: 'v1', kind: 'Secret', namespace: 'garden-foo', name: 's' }),
      cb('other', 'c2', {
        apiVersion: 'core.gardener.cloud/v1beta1',
        kind: 'InternalSecret',
        namespace: 'garden-foo',
        name: 's',
      }),
      cb('other', 'c3', { apiVersion: 'v2', kind: 'Secret', namespace: 'garden-foo', name: 's' }),
    ];
    expect(credentialsBindingsOf('Secret', 'garden-foo', new Set(['s']), creds)).toEqual(
      new Map([['other', new Set(['c1'])]]),
    );
    expect(credentialsBindingsOf('InternalSecret', 'garden-foo', new Set(['s']), creds)).toEqual(
      new Map([['other', new Set(['c2'])]]),
    );
    const quotaBindings = [
      sb('other', 'q1', { namespace: 'x', name: 'x' }, [['garden-foo', 'quota']]),
      sb('other', 'q2', { namespace: 'x', name: 'x' }, [['garden-bar', 'quota']]),
    ];
    expect(bindingsOfQuotas('garden-foo', new Set(['quota']), quotaBindings)).toEqual(
      new Map([['other', new Set(['q1'])]]),
    );
  });

  it('counts a binding only while a Shoot of its namespace uses it', async () => {
    const shoots: Record<string, Shoot[]> = {
      other: [{ spec: { secretBindingName: 'b2' } } as Shoot, { spec: { credentialsBindingName: 'b1' } } as Shoot],
    };
    const shootsIn = async (ns: string) => shoots[ns] ?? [];
    const bindings = new Map([['other', new Set(['b1'])]]);
    expect(await usedByShoots(bindings, 'secretBindingName', shootsIn)).toBe(false);
    expect(await usedByShoots(bindings, 'credentialsBindingName', shootsIn)).toBe(true);
    expect(await usedByShoots(new Map(), 'secretBindingName', shootsIn)).toBe(false);
  });
});

describe('projectPredicate', () => {
  const project = (activity?: string, generation = 1, observed = 1) =>
    ({
      metadata: { name: 'foo', generation },
      status: { lastActivityTimestamp: activity, observedGeneration: observed },
    }) as Project;
  it('passes creates and updates that are not only activity, not deletes', () => {
    expect(projectPredicate({ type: 'create', object: project() })).toBe(true);
    expect(projectPredicate({ type: 'delete', object: project() })).toBe(false);
    expect(projectPredicate({ type: 'update', oldObject: project('a'), object: project('a') })).toBe(true);
    expect(projectPredicate({ type: 'update', oldObject: project('a'), object: project('b') })).toBe(false);
    expect(projectPredicate({ type: 'update', oldObject: project('a'), object: project('b', 2, 1) })).toBe(true);
  });
});

describe('ProjectStaleReconciler', () => {
  const NS = 'garden-foo';
  const projectObj = (status: Partial<NonNullable<Project['status']>> = {}) =>
    ({
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'Project',
      metadata: { name: 'foo', creationTimestamp: formatTime(day(0)), generation: 1 },
      spec: { namespace: NS },
      status: { phase: 'Ready', ...status },
    }) as unknown as KubernetesObject;
  const namespace = (annotations: Record<string, string> = {}) =>
    ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS, annotations } }) as KubernetesObject;
  const obj = (kind: string, ns: string, name: string, rest: object = {}, labels: Record<string, string> = {}) =>
    ({ kind, metadata: { namespace: ns, name, labels }, ...rest }) as unknown as KubernetesObject;

  const setup = (...objects: KubernetesObject[]) => {
    const garden = new FakeGarden(...objects);
    let now = day(6);
    const reconciler = new ProjectStaleReconciler({
      client: garden as never,
      syncPeriodMs: 1000,
      now: () => now,
      ...settings,
    });
    const run = async (at: number) => {
      now = at;
      return reconciler.reconcile({ namespace: '', name: 'foo' }, silentContext());
    };
    const status = () => garden.find<Project>('Project', '', 'foo')?.status;
    return { garden, run, status };
  };

  it('marks an unused project stale, sets its auto-delete date after the grace period and deletes it with confirmation', async () => {
    const { garden, run, status } = setup(projectObj(), namespace());
    expect(await run(day(6))).toEqual({ requeueAfter: 1000 });
    expect(status()).toMatchObject({ staleSinceTimestamp: formatTime(day(6)) });
    expect(status()?.staleAutoDeleteTimestamp).toBeUndefined();
    await run(day(16));
    expect(status()?.staleAutoDeleteTimestamp).toBe(formatTime(day(21)));
    await run(day(20));
    expect(garden.find('Project', '', 'foo')).toBeDefined();
    await run(day(21));
    expect(garden.find('Project', '', 'foo')).toBeUndefined();
    expect(garden.writes.slice(-2)).toEqual(['patch Project /foo', 'delete Project /foo']);
  });

  it('deletes nothing and writes nothing when nothing changes', async () => {
    const { garden, run } = setup(projectObj(), namespace());
    await run(day(6));
    const writes = garden.writes.length;
    await run(day(7));
    expect(garden.writes.length).toBe(writes);
  });

  it('clears the stale marks when the namespace skips the check, the project is young, active or used by a Shoot', async () => {
    const stale = { staleSinceTimestamp: formatTime(day(0)), staleAutoDeleteTimestamp: formatTime(day(99)) };
    const cases: [string, KubernetesObject[], number][] = [
      [
        'skip annotation',
        [projectObj(stale), namespace({ 'project.gardener.cloud/skip-stale-check': 'true' })],
        day(50),
      ],
      ['young', [projectObj(stale), namespace()], day(4)],
      ['active', [projectObj({ ...stale, lastActivityTimestamp: formatTime(day(48)) }), namespace()], day(50)],
      ['shoot', [projectObj(stale), namespace(), obj('Shoot', NS, 's')], day(50)],
      ['backupentry', [projectObj(stale), namespace(), obj('BackupEntry', NS, 'b')], day(50)],
    ];
    for (const [name, objects, at] of cases) {
      const { run, status } = setup(...objects);
      await run(at);
      expect([name, status()?.staleSinceTimestamp, status()?.staleAutoDeleteTimestamp]).toEqual([
        name,
        undefined,
        undefined,
      ]);
    }
  });

  it('counts secrets and quotas only while a Shoot uses a binding that references them', async () => {
    const secret = (role?: string) =>
      obj(
        'Secret',
        NS,
        'creds',
        {},
        {
          'reference.gardener.cloud/secretbinding': 'true',
          ...(role ? { 'gardener.cloud/role': role } : {}),
        },
      );
    const binding = obj('SecretBinding', 'other', 'sb', {
      secretRef: { namespace: NS, name: 'creds' },
      quotas: [{ namespace: NS, name: 'q' }],
    });
    const credentialsBinding = obj('CredentialsBinding', 'other', 'cb', {
      credentialsRef: { apiVersion: 'core.gardener.cloud/v1beta1', kind: 'InternalSecret', namespace: NS, name: 'is' },
    });
    const user = obj('Shoot', 'other', 'user', { spec: { secretBindingName: 'sb' } });
    const credUser = obj('Shoot', 'other', 'user', { spec: { credentialsBindingName: 'cb' } });
    const internal = obj('InternalSecret', NS, 'is', {}, { 'reference.gardener.cloud/credentialsbinding': 'true' });
    const cases: [string, KubernetesObject[], boolean][] = [
      ['secret used', [secret(), binding, user], false],
      ['secret, binding unused', [secret(), binding], true],
      ["Gardener's own secret", [secret('kubeconfig'), binding, user], true],
      ['quota used', [obj('Quota', NS, 'q'), binding, user], false],
      ['internal secret used', [internal, credentialsBinding, credUser], false],
      ['internal secret, binding unused', [internal, credentialsBinding], true],
    ];
    for (const [name, objects, stale] of cases) {
      const { run, status } = setup(projectObj(), namespace(), ...objects);
      await run(day(6));
      expect([name, status()?.staleSinceTimestamp !== undefined]).toEqual([name, stale]);
    }
  });

  it('leaves deleting projects and projects without a namespace alone, and ends when the project is gone', async () => {
    const deleting = projectObj();
    deleting.metadata!.deletionTimestamp = formatTime(day(1));
    const { garden, run } = setup(deleting, namespace());
    await run(day(6));
    expect(garden.writes).toEqual([]);
    expect(await setup().run(day(6))).toBeUndefined();
  });
});

describe('registry', () => {
  const controllers = (project: Record<string, unknown> = {}) =>
    controllerManagerConfigSpec.schema.parse({
      apiVersion: 'controllermanager.config.gardener.cloud/v1alpha1',
      kind: 'ControllerManagerConfiguration',
      controllers: { project },
    }).controllers;
  const enabled = (c: ReturnType<typeof controllers>) =>
    controllerRegistry.filter((e) => e.enabled(c)).map((e) => e.name);

  it('registers project-activity and project-stale with the project block, off with concurrentSyncs 0', () => {
    expect(enabled(controllers())).toEqual(expect.arrayContaining(['project', 'project-activity', 'project-stale']));
    const off = enabled(controllers({ concurrentSyncs: 0 }));
    expect(off).not.toContain('project-activity');
    expect(off).not.toContain('project-stale');
  });
});
