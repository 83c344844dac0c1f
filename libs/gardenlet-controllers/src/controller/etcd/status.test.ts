// The status of an Etcd from its StatefulSet and Pods, as druid writes it: members, the quorum (`Ready`) and
// `AllMembersReady` conditions with druid's reasons, the builder's transition rules, replicas and `ready`.
import fc from 'fast-check';
import type { PodObject, Workload } from '@gardener-ts/controller-runtime';
import { describe, expect, it } from 'vitest';
import type { EtcdMemberStatus, EtcdResource } from './kinds.js';
import { allMembersReadyCheck, buildConditions, membersOf, observedStatus, readyCheck } from './status.js';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:01:00.000Z';

const etcd = (replicas: number): EtcdResource => ({
  apiVersion: 'druid.gardener.cloud/v1alpha1',
  kind: 'Etcd',
  metadata: { name: 'etcd-main', namespace: 'shoot--local--local', uid: 'u1', generation: 1 },
  spec: { replicas, labels: {}, etcd: {}, backup: {} },
});

const pod = (name: string, ready: boolean | undefined): PodObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'shoot--local--local' },
  status:
    ready === undefined
      ? {}
      : {
          phase: 'Running',
          conditions: [
            { type: 'Ready', status: ready ? 'True' : 'False', ...(ready ? {} : { reason: 'ContainersNotReady' }) },
          ],
        },
});

const sts = (status: Workload['status'], generation = 1): Workload => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'etcd-main', namespace: 'shoot--local--local', generation },
  status,
});

const member = (status: EtcdMemberStatus['status'], i = 0): EtcdMemberStatus => ({
  name: `etcd-main-${i}`,
  status,
  reason: '',
  lastTransitionTime: T0,
});

describe('the status of an Etcd', () => {
  it('is ready and quorate once its single member runs ready', () => {
    const status = observedStatus(
      etcd(1),
      sts({ observedGeneration: 1, replicas: 1, readyReplicas: 1, currentReplicas: 1 }),
      [pod('etcd-main-0', true)],
      T0,
    );
    expect(status).toMatchObject({
      ready: true,
      replicas: 1,
      readyReplicas: 1,
      currentReplicas: 1,
      etcd: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'etcd-main' },
      selector: 'app.kubernetes.io/managed-by=etcd-druid,app.kubernetes.io/part-of=etcd-main',
      members: [{ name: 'etcd-main-0', status: 'Ready', reason: 'PodReady', lastTransitionTime: T0 }],
    });
    expect(status.conditions?.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['AllMembersReady', 'True', 'AllMembersReady'],
      ['Ready', 'True', 'Quorate'],
    ]);
  });

  it('is not ready without its StatefulSet, with an outdated one, or with too few ready Pods', () => {
    expect(observedStatus(etcd(1), undefined, [], T0)).toMatchObject({ ready: false, replicas: 0 });
    const outdated = sts({ observedGeneration: 1, replicas: 1, readyReplicas: 1 }, 2);
    expect(observedStatus(etcd(1), outdated, [pod('etcd-main-0', true)], T0).ready).toBe(false);
    const starting = observedStatus(
      etcd(1),
      sts({ observedGeneration: 1, replicas: 1 }),
      [pod('etcd-main-0', false)],
      T0,
    );
    expect(starting.ready).toBe(false);
    expect(starting.members).toEqual([
      { name: 'etcd-main-0', status: 'NotReady', reason: 'ContainersNotReady', lastTransitionTime: T0 },
    ]);
    expect(starting.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'QuorumLost',
    });
  });

  it('reports NoMembersInStatus before any Pod exists, NotChecked when scaled to 0', () => {
    const none = observedStatus(etcd(1), sts({ observedGeneration: 1 }), [], T0);
    expect(none.conditions?.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['AllMembersReady', 'Unknown', 'NoMembersInStatus'],
      ['Ready', 'Unknown', 'NoMembersInStatus'],
    ]);
    const hibernated = observedStatus(etcd(0), sts({ observedGeneration: 1, replicas: 0 }), [], T0);
    expect(hibernated.ready).toBe(true);
    expect(hibernated.conditions?.map((c) => c.reason)).toEqual(['NotChecked', 'NotChecked']);
  });

  it('lists only the ordinal Pods of the Etcd, in ordinal order, keeping transition times of unchanged members', () => {
    const previous = [member('Ready', 0), member('NotReady', 10)];
    const members = membersOf(
      etcd(3),
      [pod('etcd-main-10', true), pod('etcd-main-0', true), pod('etcd-main-x', true), pod('etcd-events-0', true)],
      previous,
      T1,
    );
    expect(members.map((m) => [m.name, m.lastTransitionTime])).toEqual([
      ['etcd-main-0', T0],
      ['etcd-main-10', T1],
    ]);
    expect(membersOf(etcd(1), [pod('etcd-main-0', undefined)], [], T0)[0]).toMatchObject({
      status: 'Unknown',
      reason: 'PodStatusUnknown',
    });
  });

  it('is quorate exactly when a majority of the members is not NotReady', () => {
    const statuses = fc.array(fc.constantFrom<EtcdMemberStatus['status']>('Ready', 'NotReady', 'Unknown'), {
      minLength: 1,
      maxLength: 7,
    });
    fc.assert(
      fc.property(statuses, (list) => {
        const members = list.map((s, i) => member(s, i));
        const notReady = list.filter((s) => s === 'NotReady').length;
        const quorate = list.length - notReady > list.length / 2;
        expect(readyCheck(members).status).toBe(quorate ? 'True' : 'False');
        const all = allMembersReadyCheck(members, list.length);
        expect(all.status).toBe(list.every((s) => s === 'Ready') ? 'True' : 'False');
        // Fewer members than replicas are never all ready.
        expect(allMembersReadyCheck(members, list.length + 1).status).toBe('False');
      }),
    );
  });

  it('moves lastTransitionTime only when a status changes, and keeps conditions it does not compute', () => {
    const results = [{ type: 'Ready', status: 'True', reason: 'Quorate', message: 'm' }] as const;
    const first = buildConditions([], results, 1, T0);
    const again = buildConditions(first, results, 1, T1);
    expect(again[0]).toMatchObject({ lastTransitionTime: T0, lastUpdateTime: T1 });
    const lost = buildConditions(
      again,
      [{ type: 'Ready', status: 'False', reason: 'QuorumLost', message: 'm' }],
      1,
      T1,
    );
    expect(lost[0]).toMatchObject({ status: 'False', lastTransitionTime: T1 });
    const other = {
      type: 'DataVolumesReady',
      status: 'True',
      reason: 'r',
      message: 'm',
      lastTransitionTime: T0,
      lastUpdateTime: T0,
    };
    const backup = { ...other, type: 'BackupReady' };
    expect(buildConditions([other, backup], results, 1, T1).map((c) => c.type)).toEqual(['DataVolumesReady', 'Ready']);
  });
});
