import { describe, expect, it } from 'vitest';
import type { KubernetesObject } from '../client/types.js';
import type { ObjectEvent } from './event.js';
import {
  and,
  annotationChanged,
  generationChanged,
  labelChanged,
  labelSelectorPredicate,
  not,
  or,
  resourceVersionChanged,
} from './predicates.js';

const obj = (meta: KubernetesObject['metadata']): KubernetesObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'x', namespace: 'd', ...meta },
});
const update = (a: KubernetesObject['metadata'], b: KubernetesObject['metadata']): ObjectEvent => ({
  type: 'update',
  oldObject: obj(a),
  object: obj(b),
});

describe('predicates', () => {
  it('GenerationChanged passes spec changes only, and every non-update', () => {
    expect(
      generationChanged(update({ generation: 1, resourceVersion: '1' }, { generation: 2, resourceVersion: '2' })),
    ).toBe(true);
    expect(
      generationChanged(update({ generation: 1, resourceVersion: '1' }, { generation: 1, resourceVersion: '2' })),
    ).toBe(false);
    expect(generationChanged({ type: 'create', object: obj({}) })).toBe(true);
    expect(generationChanged({ type: 'delete', object: obj({}) })).toBe(true);
  });

  it('ResourceVersionChanged drops resync updates', () => {
    expect(resourceVersionChanged(update({ resourceVersion: '5' }, { resourceVersion: '5' }))).toBe(false);
    expect(resourceVersionChanged(update({ resourceVersion: '5' }, { resourceVersion: '6' }))).toBe(true);
  });

  it('LabelChanged and AnnotationChanged compare the maps, not their identity', () => {
    expect(labelChanged(update({ labels: { a: '1' } }, { labels: { a: '1' } }))).toBe(false);
    expect(labelChanged(update({ labels: { a: '1' } }, { labels: { a: '2' } }))).toBe(true);
    expect(labelChanged(update({}, { labels: { a: '1' } }))).toBe(true);
    expect(labelChanged(update({ labels: { a: '1' } }, { labels: { a: '1' }, annotations: { n: 'x' } }))).toBe(false);
    expect(annotationChanged(update({ annotations: { n: '1' } }, { annotations: {} }))).toBe(true);
    expect(annotationChanged(update({ annotations: {} }, {}))).toBe(false);
  });

  it('label selector predicate matches the object (the new one on updates)', () => {
    const p = labelSelectorPredicate({ matchLabels: { team: 'a' } });
    expect(p({ type: 'create', object: obj({ labels: { team: 'a' } }) })).toBe(true);
    expect(p(update({ labels: { team: 'a' } }, { labels: { team: 'b' } }))).toBe(false);
    expect(labelSelectorPredicate('team in (a,b)')({ type: 'delete', object: obj({ labels: { team: 'b' } }) })).toBe(
      true,
    );
  });

  it('combines with and, or, not', () => {
    const yes = () => true;
    const no = () => false;
    expect(and(yes, no)({ type: 'generic', object: obj({}) })).toBe(false);
    expect(or(yes, no)({ type: 'generic', object: obj({}) })).toBe(true);
    expect(not(no)({ type: 'generic', object: obj({}) })).toBe(true);
    expect(and()({ type: 'generic', object: obj({}) })).toBe(true);
    const specOrLabels = or(generationChanged, labelChanged);
    expect(specOrLabels(update({ generation: 1, labels: {} }, { generation: 1, labels: { a: 'b' } }))).toBe(true);
    expect(specOrLabels(update({ generation: 1 }, { generation: 1 }))).toBe(false);
  });
});
