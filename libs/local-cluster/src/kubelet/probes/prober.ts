// Runs a container's startup, liveness and readiness probes on their schedules and reports what they decide:
// `started` once the startup probe succeeds, `ready` as readiness flips, `unhealthy` when startup or liveness fails
// `failureThreshold` times in a row (the container must be restarted).
import type * as k8s from '@kubernetes/client-node';
import { runProbe, type ProbeTarget } from './probe-check.js';

export interface ProbeEvents {
  started(): void;
  ready(ready: boolean): void;
  unhealthy(kind: 'startup' | 'liveness', message: string): void;
}

type Kind = 'startup' | 'liveness' | 'readiness';

export class Prober {
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly target: ProbeTarget,
    private readonly events: ProbeEvents,
  ) {}

  start(): void {
    const c = this.target.container;
    if (c.startupProbe) this.schedule('startup', c.startupProbe);
    else this.afterStartup();
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private afterStartup(): void {
    const c = this.target.container;
    this.events.started();
    if (c.livenessProbe) this.schedule('liveness', c.livenessProbe);
    if (c.readinessProbe) this.schedule('readiness', c.readinessProbe);
    else this.events.ready(true);
  }

  private schedule(kind: Kind, probe: k8s.V1Probe): void {
    const periodMs = (probe.periodSeconds ?? 10) * 1000;
    const successThreshold = kind === 'readiness' ? (probe.successThreshold ?? 1) : 1;
    const failureThreshold = probe.failureThreshold ?? 3;
    let successes = 0;
    let failures = 0;
    let ready: boolean | undefined;
    const tick = async () => {
      if (this.stopped) return;
      const result = await runProbe(probe, this.target);
      if (this.stopped) return;
      if (result.ok) {
        failures = 0;
        successes++;
      } else {
        successes = 0;
        failures++;
      }
      if (kind === 'readiness') {
        const next = successes >= successThreshold ? true : failures >= failureThreshold ? false : ready;
        if (next !== undefined && next !== ready) this.events.ready((ready = next));
      } else if (result.ok && kind === 'startup') {
        this.afterStartup();
        return;
      } else if (!result.ok && failures >= failureThreshold) {
        this.events.unhealthy(kind, result.message);
        return;
      }
      this.after(periodMs, tick);
    };
    this.after((probe.initialDelaySeconds ?? 0) * 1000, tick);
  }

  private after(ms: number, fn: () => Promise<void>): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void fn();
    }, ms);
    this.timers.add(timer);
  }
}
