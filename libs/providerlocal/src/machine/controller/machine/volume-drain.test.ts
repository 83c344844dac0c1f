import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PodObject } from '@gardener-ts/controller-runtime';
import type { PodStep } from './drain.js';
import {
  attachedVolumes,
  claimNamesOf,
  inFlightStep,
  splitByVolumes,
  trackedVolumes,
  volumePodActions,
  type VolumePodInFlight,
} from './volume-drain.js';

const pod = (name: string, opts: { claims?: string[]; priority?: number; emptyDir?: boolean } = {}): PodObject => ({
  metadata: { name, namespace: 'default', uid: `uid-${name}` },
  spec: {
    nodeName: 'n1',
    containers: [],
    ...(opts.priority !== undefined ? { priority: opts.priority } : {}),
    volumes: [
      ...(opts.emptyDir ? [{ name: 'scratch', emptyDir: {} }] : []),
      ...(opts.claims ?? []).map((c) => ({ name: c, persistentVolumeClaim: { claimName: c } })),
    ],
  },
});
const claim = (name: string, volumeName?: string) => ({
  metadata: { name, namespace: 'default' },
  spec: volumeName ? { volumeName } : {},
});

describe('splitByVolumes', () => {
  it('puts Pods with a PersistentVolumeClaim aside, highest priority first, keeping the order among equals', () => {
    const pods = [
      pod('web', { emptyDir: true }),
      pod('db-low', { claims: ['a'], priority: 1 }),
      pod('db-none', { claims: ['b'] }),
      pod('db-high', { claims: ['c'], priority: 1000 }),
      pod('db-low2', { claims: ['d'], priority: 1 }),
    ];
    const { withVolumes, withoutVolumes } = splitByVolumes(pods);
    expect(withoutVolumes.map((p) => p.metadata?.name)).toEqual(['web']);
    expect(withVolumes.map((p) => p.metadata?.name)).toEqual(['db-high', 'db-low', 'db-low2', 'db-none']);
  });

  it('is a partition: every Pod lands on exactly one side, by whether it mounts a claim (property)', () => {
    const arbitraryPod = fc.record({
      claims: fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 2 }),
      priority: fc.option(fc.integer({ min: -10, max: 10 }), { nil: undefined }),
      emptyDir: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(arbitraryPod, { maxLength: 8 }), (specs) => {
        const pods = specs.map((o, i) => pod(`p${i}`, o));
        const { withVolumes, withoutVolumes } = splitByVolumes(pods);
        expect(withVolumes.length + withoutVolumes.length).toBe(pods.length);
        expect(withVolumes.every((p) => claimNamesOf(p).length > 0)).toBe(true);
        expect(withoutVolumes.every((p) => claimNamesOf(p).length === 0)).toBe(true);
        const priorities = withVolumes.map((p) => (p.spec?.priority as number | undefined) ?? 0);
        expect(priorities).toEqual([...priorities].sort((a, b) => b - a));
      }),
    );
  });
});

describe('trackedVolumes', () => {
  it('maps claims to their bound volumes and leaves out unbound, missing and shared ones', () => {
    const pods = [
      pod('db-0', { claims: ['data-0', 'shared'] }),
      pod('db-1', { claims: ['data-1', 'shared', 'missing'] }),
      pod('cache', { claims: ['pending'] }),
    ];
    const claims = [claim('data-0', 'pv-0'), claim('data-1', 'pv-1'), claim('shared', 'pv-s'), claim('pending')];
    expect(trackedVolumes(pods, claims)).toEqual(
      new Map([
        ['uid-db-0', ['pv-0']],
        ['uid-db-1', ['pv-1']],
        ['uid-cache', []],
      ]),
    );
  });

  it('does not count one Pod mounting the same claim twice as sharing', () => {
    expect(trackedVolumes([pod('db', { claims: ['x', 'x'] })], [claim('x', 'pv-x')])).toEqual(
      new Map([['uid-db', ['pv-x']]]),
    );
  });

  it('looks claims up in the Pod’s namespace only', () => {
    const other = { metadata: { name: 'data', namespace: 'other' }, spec: { volumeName: 'pv-other' } };
    expect(trackedVolumes([pod('db', { claims: ['data'] })], [other])).toEqual(new Map([['uid-db', []]]));
  });
});

describe('attachedVolumes', () => {
  it('takes the persistent volumes of the VolumeAttachments of the Node only', () => {
    const attachments = [
      { spec: { nodeName: 'n1', source: { persistentVolumeName: 'pv-0' } } },
      { spec: { nodeName: 'n2', source: { persistentVolumeName: 'pv-1' } } },
      { spec: { nodeName: 'n1', source: {} } },
    ];
    expect(attachedVolumes(attachments, 'n1')).toEqual(new Set(['pv-0']));
  });
});

describe('inFlightStep', () => {
  const inFlight: VolumePodInFlight = {
    key: 'uid-db',
    name: 'default/db',
    volumes: ['pv-0', 'pv-1'],
    removedAt: 1_000_000,
    graceMs: 30_000,
  };
  const at = (now: number, attached: string[], podPresent = false) =>
    inFlightStep({ inFlight, podPresent, attached: new Set(attached), now, detachTimeoutMs: 120_000 });

  it('leaves a Pod still there to its own wait', () => {
    expect(at(1_000_001, ['pv-0'], true)).toEqual({ type: 'pod' });
  });

  it('is done once none of its volumes is attached to the Node any more', () => {
    expect(at(1_000_001, ['pv-other'])).toEqual({ type: 'detached' });
  });

  it('waits for attached volumes up to the grace period plus the detach timeout, then times out', () => {
    expect(at(1_010_000, ['pv-1'])).toEqual({ type: 'wait', untilMs: 1_015_000, attached: ['pv-1'] });
    expect(at(1_148_000, ['pv-1', 'pv-0'])).toEqual({ type: 'wait', untilMs: 1_150_001, attached: ['pv-0', 'pv-1'] });
    expect(at(1_150_000, ['pv-1']).type).toBe('wait');
    expect(at(1_150_001, ['pv-1'])).toEqual({ type: 'timeout', attached: ['pv-1'] });
  });

  it('never looks again later than the poll interval nor past the deadline (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1_000_000, max: 1_200_000 }), (now) => {
        const step = at(now, ['pv-0']);
        if (step.type === 'wait') {
          expect(step.untilMs).toBeGreaterThan(now);
          expect(step.untilMs).toBeLessThanOrEqual(Math.min(now + 5_000, 1_150_001));
        } else {
          expect(step.type).toBe('timeout');
          expect(now).toBeGreaterThan(1_150_000);
        }
      }),
    );
  });
});

describe('volumePodActions', () => {
  const evict: PodStep = { type: 'evict' };
  const wait: PodStep = { type: 'wait', untilMs: 1 };

  it('lets the due Pods be tried in order while none is in flight', () => {
    expect(volumePodActions([evict, { type: 'retry-later', atMs: 5 }, { type: 'delete' }], false)).toEqual({
      busy: false,
      actions: ['try', 'own', 'try'],
    });
  });

  it('queues every due Pod while one is in flight, remembered or already evicted', () => {
    expect(volumePodActions([evict, { type: 'delete' }], true)).toEqual({ busy: true, actions: ['queued', 'queued'] });
    expect(volumePodActions([evict, wait], false)).toEqual({ busy: true, actions: ['queued', 'own'] });
    expect(volumePodActions([{ type: 'timeout' }, evict], false).actions).toEqual(['own', 'queued']);
  });
});
