import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OperationProgress } from '@gardener-ts/messaging';
import { applyProgress, applyShoot, bar, initialState, outcomeOf, renderFrame, type ShootView } from './progress.js';

const PHASES = ['TASK_PHASE_STARTED', 'TASK_PHASE_SUCCEEDED', 'TASK_PHASE_FAILED', 'TASK_PHASE_SKIPPED'] as const;
const event = (
  progress: number,
  task?: { id: string; phase: (typeof PHASES)[number]; error?: string; codes?: string[] },
): OperationProgress => ({
  type: 'LAST_OPERATION_TYPE_CREATE',
  state: 'LAST_OPERATION_STATE_PROCESSING',
  progress,
  description: '',
  flow: 'Shoot cluster reconciliation',
  ...(task
    ? {
        task: {
          id: task.id,
          phase: task.phase,
          error: task.error ?? '',
          errorCodes: task.codes ?? [],
          durationMillis: 0,
        },
      }
    : {}),
});

const events = fc.array(
  fc.record({
    progress: fc.integer({ min: -5, max: 120 }),
    id: fc.constantFrom('a', 'b', 'c', 'd'),
    phase: fc.constantFrom(...PHASES),
  }),
  { maxLength: 40 },
);

describe('shoot progress state', () => {
  it('never goes backwards within an operation and stays within 0..100', () => {
    fc.assert(
      fc.property(events, (list) => {
        let state = initialState();
        for (const e of list) {
          const next = applyProgress(state, event(e.progress, { id: e.id, phase: e.phase }));
          expect(next.progress).toBeGreaterThanOrEqual(state.progress);
          expect(next.progress).toBeLessThanOrEqual(100);
          state = next;
        }
      }),
    );
  });

  it('keeps each task in at most one of running, done and skipped: its latest phase', () => {
    fc.assert(
      fc.property(events, (list) => {
        let state = initialState();
        for (const e of list) state = applyProgress(state, event(e.progress, { id: e.id, phase: e.phase }));
        for (const id of ['a', 'b', 'c', 'd']) {
          const last = [...list].reverse().find((e) => e.id === id);
          const places = [state.running, state.done, state.skipped].filter((l) => l.includes(id)).length;
          expect(places).toBe(last && last.phase !== 'TASK_PHASE_FAILED' ? 1 : 0);
        }
      }),
    );
  });

  it('records a failed task as the last error with its codes, and a new operation type starts afresh', () => {
    let state = applyProgress(
      initialState(),
      event(10, {
        id: 'Deploying infrastructure',
        phase: 'TASK_PHASE_FAILED',
        error: 'quota exceeded',
        codes: ['ERR_INFRA_QUOTA_EXCEEDED'],
      }),
    );
    expect(state.lastError).toEqual({
      description: 'Deploying infrastructure: quota exceeded',
      codes: ['ERR_INFRA_QUOTA_EXCEEDED'],
    });
    state = applyProgress(state, { ...event(5), type: 'LAST_OPERATION_TYPE_DELETE' });
    expect(state).toMatchObject({ type: 'Delete', progress: 5, failed: [] });
  });

  it("takes the Shoot's lastOperation and lastErrors as the truth", () => {
    const shoot: ShootView = {
      metadata: { name: 'local', generation: 1 },
      status: {
        lastOperation: { type: 'Create', state: 'Error', progress: 42, description: 'Waiting' },
        lastErrors: [{ description: 'etcd not ready', codes: ['ERR_RETRYABLE'] }],
      },
    };
    expect(applyShoot(initialState(), shoot)).toMatchObject({
      type: 'Create',
      state: 'Error',
      progress: 42,
      lastError: { description: 'etcd not ready', codes: ['ERR_RETRYABLE'] },
    });
  });
});

describe('shoot outcome', () => {
  const shoot = (status: ShootView['status'], spec: ShootView['spec'] = {}, generation = 1): ShootView => ({
    metadata: { name: 'local', generation },
    spec,
    status,
  });
  const conditions = (s: string) =>
    [
      'APIServerAvailable',
      'ControlPlaneHealthy',
      'ObservabilityComponentsHealthy',
      'EveryNodeReady',
      'SystemComponentsHealthy',
    ].map((type) => ({ type, status: s }));

  it('is ready when the operation on the current generation succeeded and every condition is True', () => {
    expect(
      outcomeOf(
        shoot({
          observedGeneration: 1,
          lastOperation: { type: 'Create', state: 'Succeeded', progress: 100 },
          conditions: conditions('True'),
        }),
        'ready',
      ),
    ).toBe('ready');
    expect(
      outcomeOf(
        shoot({
          observedGeneration: 1,
          lastOperation: { type: 'Create', state: 'Succeeded', progress: 100 },
          conditions: conditions('Unknown'),
        }),
        'ready',
      ),
    ).toBe('progressing');
    expect(
      outcomeOf(
        shoot({ observedGeneration: 1, lastOperation: { type: 'Create', state: 'Succeeded', progress: 100 } }, {}, 2),
        'ready',
      ),
    ).toBe('progressing');
  });

  it('is failed on a Failed operation, hibernated when asked and done, deleted when gone', () => {
    expect(outcomeOf(shoot({ lastOperation: { type: 'Create', state: 'Failed' } }), 'ready')).toBe('failed');
    expect(
      outcomeOf(
        shoot(
          { observedGeneration: 1, hibernated: true, lastOperation: { type: 'Reconcile', state: 'Succeeded' } },
          { hibernation: { enabled: true } },
        ),
        'ready',
      ),
    ).toBe('hibernated');
    expect(outcomeOf(undefined, 'deleted')).toBe('deleted');
    expect(outcomeOf(shoot({ lastOperation: { type: 'Delete', state: 'Processing' } }), 'deleted')).toBe('progressing');
  });
});

describe('shoot progress frame', () => {
  it('renders the bar, the percentage, the running tasks with counts and the last error with its codes', () => {
    let state = applyProgress(initialState(), event(40, { id: 'Deploying etcd', phase: 'TASK_PHASE_STARTED' }));
    state = applyProgress(state, event(40, { id: 'Deploying namespace', phase: 'TASK_PHASE_SUCCEEDED' }));
    state = applyProgress(
      state,
      event(40, { id: 'Deploying DNS', phase: 'TASK_PHASE_FAILED', error: 'timeout', codes: ['ERR_RETRYABLE'] }),
    );
    expect(renderFrame('garden-local/local', state)).toBe(
      [
        `garden-local/local ${'█'.repeat(12)}${'░'.repeat(18)}  40% Create Processing`,
        '  running: Deploying etcd | done 1, failed 1',
        '  last error: Deploying DNS: timeout [ERR_RETRYABLE]',
      ].join('\n'),
    );
    expect(bar(100, 4)).toBe('████');
  });
});
