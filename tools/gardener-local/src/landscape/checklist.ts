// The landscape's step checklist: what `npm start` prints instead of JSON logs. Each step ends as ✓ with its
// duration, ✗ with the reason and the log to read, or – skipped with the reason (a step we cannot run yet is said,
// never faked as done). On a terminal the running step shows as "… name" and is overwritten by its outcome.

/** Thrown by a step that cannot run here; the checklist shows it as skipped with the reason. */
export class SkipStep extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'SkipStep';
  }
}

export type StepStatus = 'ok' | 'failed' | 'skipped';

export interface StepResult {
  name: string;
  status: StepStatus;
  durationMs: number;
  /** The outcome's detail: what was done (ok), the reason (failed, skipped). */
  detail?: string;
  /** Where to read more when the step failed. */
  log?: string;
}

/** Seconds with one decimal below a minute, else minutes and seconds. */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/** One finished step as one line. */
export function renderStep(result: StepResult): string {
  switch (result.status) {
    case 'ok':
      return `✓ ${result.name}${result.detail ? ` — ${result.detail}` : ''} (${formatDuration(result.durationMs)})`;
    case 'skipped':
      return `– ${result.name}: skipped — ${result.detail ?? 'no reason given'}`;
    case 'failed':
      return `✗ ${result.name}: ${result.detail ?? 'failed'} (${formatDuration(result.durationMs)})${result.log ? `\n    log: ${result.log}` : ''}`;
  }
}

export interface ChecklistOutput {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

/** Runs steps one after another and prints each outcome; a failed step stops the list (later steps need it). */
export class Checklist {
  readonly results: StepResult[] = [];

  constructor(
    private readonly out: ChecklistOutput,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Runs `fn` as step `name`. Its string result is the step's detail. A `SkipStep` marks it skipped and the list goes
   * on; any other error marks it failed (with `log` as the place to read) and is rethrown.
   */
  async step(name: string, fn: () => Promise<string | void>, log?: string): Promise<StepResult> {
    const started = this.now();
    if (this.out.isTTY) this.out.write(`… ${name}`);
    let result: StepResult;
    try {
      const detail = await fn();
      result = { name, status: 'ok', durationMs: this.now() - started, ...(detail ? { detail } : {}) };
    } catch (err) {
      const skipped = err instanceof SkipStep;
      result = {
        name,
        status: skipped ? 'skipped' : 'failed',
        durationMs: this.now() - started,
        detail: (err as Error).message,
        ...(!skipped && log ? { log } : {}),
      };
      this.finish(result);
      if (!skipped) throw new Error(`step "${name}" failed: ${(err as Error).message}`, { cause: err });
      return result;
    }
    this.finish(result);
    return result;
  }

  private finish(result: StepResult): void {
    this.results.push(result);
    this.out.write(`${this.out.isTTY ? '\r\x1b[2K' : ''}${renderStep(result)}\n`);
  }
}
