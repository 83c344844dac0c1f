// Which waiting pods a cluster event retries: the pods mounting a changed claim, the pods with claims on a StorageClass
// change, every waiting pod on node, namespace and bound-pod changes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PersistentVolumeClaim, Pod } from '../shared/kinds.js';
import { type ClusterEvent, podsToRetry } from './requeue.js';

const waitingPod = (name: string, namespace: string, ...claims: string[]): Pod => ({
  metadata: { name, namespace },
  spec: {
    containers: [{ name: 'c', image: 'i' }],
    volumes: claims.map((c, i) => ({ name: `v${i}`, persistentVolumeClaim: { claimName: c } })),
  },
});
const claim = (namespace: string, name: string): PersistentVolumeClaim => ({ metadata: { namespace, name } });
const names = (pods: Pod[]) => pods.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`);

const waiting = [
  waitingPod('etcd-0', 'shoot-a', 'data-etcd-0'),
  waitingPod('etcd-0', 'shoot-b', 'data-etcd-0'),
  waitingPod('two', 'shoot-a', 'logs', 'data-etcd-0'),
  waitingPod('picky', 'shoot-a'),
];

describe('podsToRetry', () => {
  it('retries on a claim change only the pods of its namespace that mount it', () => {
    expect(
      names(podsToRetry({ kind: 'PersistentVolumeClaim', claim: claim('shoot-a', 'data-etcd-0') }, waiting)),
    ).toEqual(['shoot-a/etcd-0', 'shoot-a/two']);
    expect(podsToRetry({ kind: 'PersistentVolumeClaim', claim: claim('shoot-c', 'data-etcd-0') }, waiting)).toEqual([]);
  });

  it('retries on a StorageClass change the pods with claims', () => {
    expect(names(podsToRetry({ kind: 'StorageClass' }, waiting))).toEqual([
      'shoot-a/etcd-0',
      'shoot-b/etcd-0',
      'shoot-a/two',
    ]);
  });

  it('retries every waiting pod on node, namespace and bound-pod changes', () => {
    for (const kind of ['Node', 'Namespace', 'AssignedPod'] as const)
      expect(podsToRetry({ kind }, waiting)).toEqual(waiting);
  });

  it('never retries a pod that is not waiting, and retries a pod whenever its own claim changes', () => {
    const podArb = fc
      .record({
        name: fc.constantFrom('a', 'b', 'c'),
        namespace: fc.constantFrom('x', 'y'),
        claims: fc.array(fc.constantFrom('c1', 'c2', 'c3'), { maxLength: 3 }),
      })
      .map((p) => waitingPod(p.name, p.namespace, ...p.claims));
    const eventArb: fc.Arbitrary<ClusterEvent> = fc.oneof(
      fc.record({ namespace: fc.constantFrom('x', 'y'), name: fc.constantFrom('c1', 'c2', 'c3') }).map((c) => ({
        kind: 'PersistentVolumeClaim' as const,
        claim: claim(c.namespace, c.name),
      })),
      fc.constantFrom<ClusterEvent>({ kind: 'StorageClass' }, { kind: 'Node' }, { kind: 'AssignedPod' }),
    );
    fc.assert(
      fc.property(fc.array(podArb, { maxLength: 6 }), eventArb, (pods, event) => {
        const retried = podsToRetry(event, pods);
        expect(retried.every((p) => pods.includes(p))).toBe(true);
        if (event.kind !== 'PersistentVolumeClaim') return;
        const { namespace, name } = event.claim.metadata!;
        for (const p of pods) {
          const mounts = (p.spec?.volumes ?? []).some((v) => v.persistentVolumeClaim?.claimName === name);
          expect(retried.includes(p)).toBe(p.metadata?.namespace === namespace && mounts);
        }
      }),
    );
  });
});
