// What the kubelet knows about one container of a Pod across its runs: the current state, the termination before
// it, readiness, restarts and when the next start may happen. Times are RFC 3339 strings, as they go into status.
import type * as k8s from '@kubernetes/client-node';
import { BackOff, type BackOffSettings } from '../runtime/backoff.js';
import type { ContainerProcess } from '../runtime/container-process.js';

export interface Termination {
  exitCode: number;
  signal?: number;
  reason: string;
  message?: string;
  startedAt?: string;
  finishedAt: string;
  containerID?: string;
}

export type State =
  { waiting: { reason: string; message?: string } } | { running: { startedAt: string } } | { terminated: Termination };

/** What a running container was started with: exec runs commands the same way. */
export interface ContainerSetup {
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  imageID: string;
  /** The argv of a command run in the container (exec probe, exec); throws a MissingBinaryError outside the image. */
  exec(command: string[]): string[];
}

export function rfc3339(date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export class ContainerState {
  state: State;
  /** The termination that ended the previous run (`lastState`). */
  previous?: Termination;
  /** The termination of the latest run while a restart is pending. */
  pendingTermination?: Termination;
  /** Starts so far, counting failed ones; restartCount is one less (plus restarts before a kubelet restart). */
  starts = 0;
  ready = false;
  started = false;
  /** A start is due (first start, or a restart the restart policy asks for) at or after `nextStartAt`. */
  startWanted = true;
  nextStartAt = 0;
  /** Failed image lookups in a row: the first reports ErrImagePull, later ones ImagePullBackOff. */
  imageFailures = 0;
  process?: ContainerProcess;
  setup?: ContainerSetup;
  /** Why the kubelet stopped the current run (a failed liveness probe), reported with its termination. */
  killReason?: string;
  readonly backoff: BackOff;

  constructor(
    readonly spec: k8s.V1Container,
    readonly init: boolean,
    backoff: BackOffSettings,
    private readonly restartsBefore = 0,
  ) {
    this.backoff = new BackOff(backoff);
    this.state = { waiting: { reason: init ? 'PodInitializing' : 'ContainerCreating' } };
  }

  get name(): string {
    return this.spec.name;
  }

  get restartCount(): number {
    return Math.max(0, this.starts - 1) + this.restartsBefore;
  }

  get running(): boolean {
    return 'running' in this.state;
  }

  get terminated(): Termination | undefined {
    return 'terminated' in this.state ? this.state.terminated : undefined;
  }

  /** Finished for good: terminated and no restart to come. */
  get done(): boolean {
    return !!this.terminated && !this.startWanted;
  }

  get succeeded(): boolean {
    return this.done && this.terminated!.exitCode === 0;
  }

  /** The termination `lastState` shows: while waiting to restart, the one that just happened. */
  get lastTermination(): Termination | undefined {
    return 'waiting' in this.state && this.startWanted && this.pendingTermination
      ? this.pendingTermination
      : this.previous;
  }

  /** Records a new run: the latest termination becomes `lastState`. */
  beginRun(): void {
    if (this.pendingTermination) this.previous = this.pendingTermination;
    this.pendingTermination = undefined;
    this.starts++;
    this.startWanted = false;
    this.ready = false;
    this.started = false;
  }

  /** Records the end of a run; `restart` says whether the restart policy wants another one after `waitMs`. */
  endRun(termination: Termination, restart: boolean, waitMs: number, podRef: string): void {
    this.process = undefined;
    this.ready = false;
    this.started = false;
    this.startWanted = restart;
    if (!restart) {
      this.state = { terminated: termination };
      return;
    }
    this.pendingTermination = termination;
    this.nextStartAt = Date.now() + waitMs;
    this.state =
      waitMs > 0
        ? {
            waiting: {
              reason: 'CrashLoopBackOff',
              message: `back-off ${Math.round(waitMs / 1000)}s restarting failed container=${this.name} pod=${podRef}`,
            },
          }
        : { terminated: termination };
  }

  status(): k8s.V1ContainerStatus {
    const last = this.lastTermination;
    return {
      name: this.name,
      image: this.spec.image ?? '',
      imageID: this.setup?.imageID ?? '',
      containerID: this.process ? `local://${this.process.pid}` : (this.terminated?.containerID ?? last?.containerID),
      state: this.state as unknown as k8s.V1ContainerState,
      lastState: (last ? { terminated: last } : {}) as unknown as k8s.V1ContainerState,
      ready: this.ready,
      started: this.started,
      restartCount: this.restartCount,
    };
  }
}
