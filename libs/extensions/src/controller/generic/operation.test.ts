import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeOperationType,
  hasClass,
  isMigrated,
  shouldSkipOperation,
  type ExtensionObjectView,
} from './operation.js';

const types = ['Create', 'Reconcile', 'Delete', 'Migrate', 'Restore'] as const;
const states = ['Processing', 'Succeeded', 'Error', 'Failed'] as const;
const objects: fc.Arbitrary<ExtensionObjectView> = fc.record({
  metadata: fc.record({
    annotations: fc
      .option(fc.constantFrom('reconcile', 'migrate', 'restore', 'retry'), { nil: undefined })
      .map((v) => (v === undefined ? {} : ({ 'gardener.cloud/operation': v } as Record<string, string>))),
    deletionTimestamp: fc.option(fc.constant('2026-01-01T00:00:00Z'), { nil: undefined }),
  }),
  status: fc.record({
    lastOperation: fc.option(fc.record({ type: fc.constantFrom(...types), state: fc.constantFrom(...states) }), {
      nil: undefined,
    }),
  }),
});

describe('computeOperationType', () => {
  it('reads an Extension as gardenlet writes it', () => {
    const ext = { metadata: { annotations: { 'gardener.cloud/operation': 'reconcile' } }, spec: { type: 'hello' } };
    expect(computeOperationType(ext)).toBe('Create');
    const done = { ...ext, status: { lastOperation: { type: 'Create', state: 'Succeeded' } } };
    expect(computeOperationType(done)).toBe('Reconcile');
    expect(
      computeOperationType({ ...done, metadata: { annotations: { 'gardener.cloud/operation': 'migrate' } } }),
    ).toBe('Migrate');
    expect(
      computeOperationType({ ...done, metadata: { annotations: { 'gardener.cloud/operation': 'restore' } } }),
    ).toBe('Restore');
    expect(computeOperationType({ ...done, metadata: { deletionTimestamp: '2026-01-01T00:00:00Z' } })).toBe('Delete');
  });

  it('migrate and restore annotations win over everything; deletion over the last operation', () => {
    fc.assert(
      fc.property(objects, (obj) => {
        const op = computeOperationType(obj);
        const annotation = obj.metadata?.annotations?.['gardener.cloud/operation'];
        if (annotation === 'migrate') return op === 'Migrate';
        if (annotation === 'restore') return op === 'Restore';
        if (obj.metadata?.deletionTimestamp) return op === 'Delete';
        return op !== 'Delete';
      }),
    );
  });

  it('an unfinished Create, Migrate or Restore continues; anything else succeeded becomes Reconcile', () => {
    fc.assert(
      fc.property(fc.constantFrom(...types), fc.constantFrom(...states), (type, state) => {
        const op = computeOperationType({ status: { lastOperation: { type, state } } });
        if (state !== 'Succeeded' && (type === 'Create' || type === 'Migrate' || type === 'Restore'))
          return op === type;
        return op === 'Reconcile';
      }),
    );
  });
});

describe('shouldSkipOperation', () => {
  it('skips a migrated object unless it is migrated again or restored', () => {
    fc.assert(
      fc.property(objects, (obj) => {
        const op = computeOperationType(obj);
        const skip = shouldSkipOperation(op, obj);
        return skip === (isMigrated(obj) && op !== 'Migrate' && op !== 'Restore');
      }),
    );
    const migrated = { status: { lastOperation: { type: 'Migrate', state: 'Succeeded' } } };
    expect(shouldSkipOperation(computeOperationType(migrated), migrated)).toBe(true);
  });
});

describe('hasClass', () => {
  it('treats an unset class as shoot and an unconfigured controller as serving shoot only', () => {
    expect(hasClass({ spec: { type: 'x' } })).toBe(true);
    expect(hasClass({ spec: { type: 'x', class: 'seed' } })).toBe(false);
    expect(hasClass({ spec: { type: 'x', class: 'seed' } }, ['seed'])).toBe(true);
    expect(hasClass({ spec: { type: 'x' } }, ['garden'])).toBe(false);
    expect(hasClass({ spec: { type: 'x' } }, ['shoot', 'garden'])).toBe(true);
  });
});
