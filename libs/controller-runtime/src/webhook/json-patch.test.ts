import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonPatchOperation } from '../client/options.js';
import { createJsonPatch } from './json-patch.js';

/** A minimal RFC 6902 applier (add/remove/replace), independent of the code under test. */
function applyPatch(doc: unknown, ops: JsonPatchOperation[]): unknown {
  let root = structuredClone(doc);
  for (const op of ops) {
    if (op.path === '') {
      root = structuredClone(op.value);
      continue;
    }
    const tokens = op.path
      .slice(1)
      .split('/')
      .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = tokens.pop()!;
    let parent = root as Record<string, unknown> | unknown[];
    for (const t of tokens) parent = (parent as Record<string, unknown>)[t] as Record<string, unknown>;
    if (Array.isArray(parent)) {
      const i = last === '-' ? parent.length : Number(last);
      if (op.op === 'add') parent.splice(i, 0, structuredClone(op.value));
      else if (op.op === 'remove') parent.splice(i, 1);
      else parent[i] = structuredClone(op.value);
    } else if (op.op === 'remove') {
      if (!(last in parent)) throw new Error(`remove of missing ${op.path}`);
      delete parent[last];
    } else {
      if (op.op === 'replace' && !(last in parent)) throw new Error(`replace of missing ${op.path}`);
      parent[last] = structuredClone(op.value);
    }
  }
  return root;
}

describe('createJsonPatch', () => {
  it('is empty for equal documents and minimal for a label added', () => {
    const cm = { metadata: { name: 'x', labels: { a: '1' } }, data: { k: 'v' } };
    expect(createJsonPatch(cm, structuredClone(cm))).toEqual([]);
    expect(
      createJsonPatch(cm, { ...cm, metadata: { ...cm.metadata, labels: { a: '1', 'example.com/b': '2' } } }),
    ).toEqual([{ op: 'add', path: '/metadata/labels/example.com~1b', value: '2' }]);
  });

  it('drops undefined properties as JSON would', () => {
    expect(createJsonPatch({ a: 1 }, { a: 1, b: undefined })).toEqual([]);
  });

  it('turns any document into any other (property)', () => {
    const json = fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
    const objects = fc.dictionary(fc.string({ maxLength: 4 }), json, { maxKeys: 5 });
    fc.assert(
      fc.property(objects, objects, (a, b) => {
        expect(applyPatch(a, createJsonPatch(a, b))).toEqual(b);
      }),
      { numRuns: 300 },
    );
  });
});
