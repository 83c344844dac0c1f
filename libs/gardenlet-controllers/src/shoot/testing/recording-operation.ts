// A fake shoot operation for flow tests: every step records its name when it starts and ends, may wait a few event
// loop turns first (to shuffle completion orders), and fails when the test says so.
import type { Step } from '../flow/operation.js';

/** What the fake recorded. */
export interface Recording {
  /** Step names in the order they started. */
  readonly started: string[];
  /** Step names in the order they finished successfully. */
  readonly finished: string[];
}

/** Options of {@link recordingOperation}. */
export interface RecordingOptions {
  /** Steps that throw. */
  readonly fail?: readonly string[];
  /** Event loop turns a step waits before finishing (by step name; 0 by default). */
  readonly delay?: (step: string) => number;
}

/** A fake operation of any step interface `T` whose every property is a recording step. */
export function recordingOperation<T extends object>(options: RecordingOptions = {}): { op: T; recording: Recording } {
  const recording: Recording = { started: [], finished: [] };
  const op = new Proxy({} as T, {
    get(_target, property): Step {
      const name = String(property);
      return async () => {
        recording.started.push(name);
        for (let i = 0; i < (options.delay?.(name) ?? 0); i++) await new Promise((resolve) => setImmediate(resolve));
        if (options.fail?.includes(name)) throw new Error(`${name} failed`);
        recording.finished.push(name);
      };
    },
  });
  return { op, recording };
}
