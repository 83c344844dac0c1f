// The etcdcopybackupstask controller's trigger: task events except status-only updates (the controller's own writes).
import { describe, expect, it } from 'vitest';
import { taskChanged } from './add.js';
import { exampleTask } from './testdata.js';

const task = (generation: number, deletionTimestamp?: string) =>
  exampleTask((t) => (t.metadata = { ...t.metadata, generation, ...(deletionTimestamp ? { deletionTimestamp } : {}) }));

describe('taskChanged', () => {
  it('passes creations, deletions, spec changes and the start of a deletion', () => {
    expect(taskChanged({ type: 'create', object: task(1) })).toBe(true);
    expect(taskChanged({ type: 'delete', object: task(1) })).toBe(true);
    expect(taskChanged({ type: 'update', oldObject: task(1), object: task(2) })).toBe(true);
    expect(taskChanged({ type: 'update', oldObject: task(1), object: task(1, '2026-11-30T00:00:00Z') })).toBe(true);
  });

  it('drops updates of the status only', () => {
    const withStatus = { ...task(1), status: { observedGeneration: 1 } };
    expect(taskChanged({ type: 'update', oldObject: task(1), object: withStatus })).toBe(false);
  });
});
