// Runs one Pod: materialises its volumes, runs init containers in order and then the containers, restarts them as
// the restart policy says with back-off, probes them, publishes status when it changes, and on deletion stops every
// process (SIGTERM, grace period, SIGKILL) before confirming the deletion to the API server.
import { rm } from 'node:fs/promises';
import type * as k8s from '@kubernetes/client-node';
import type { Logger } from '@gardener-ts/logging';
import type { ImageMap } from '../../images/image-map.js';
import { MissingBinaryError } from '../../images/program.js';
import { isNotFound, MERGE_PATCH, type KubeClients } from '../api/kube-client.js';
import { PodEvents } from '../api/pod-events.js';
import { Prober } from '../probes/prober.js';
import type { BackOffSettings } from '../runtime/backoff.js';
import { ContainerProcess } from '../runtime/container-process.js';
import { containerLogPath, removeOldRuns, type LogRotation } from '../runtime/log-file.js';
import { forgetPid, recordPid } from '../runtime/pid-records.js';
import { MOUNT_RETRY_MAX_MS, MountRetry } from '../volumes/mount-retry.js';
import { materialiseVolumes, VolumeConfinementError } from '../volumes/pod-volumes.js';
import type { ServiceAccountTokens } from '../volumes/service-account-tokens.js';
import { ContainerState, rfc3339, type Termination } from './container-state.js';
import { prepareContainer, StartError } from './container-start.js';
import { ObjectReader } from './object-reader.js';
import type { PodIPs } from './pod-ips.js';
import { PodStatusBuilder } from './pod-status.js';

export interface PodWorkerDeps {
  clients: KubeClients;
  /** The node this kubelet runs, the source host of its Events. */
  nodeName: string;
  imageMap: ImageMap;
  tokens: ServiceAccountTokens;
  allocatable: Record<string, string>;
  /** The machine's root directory hostPath volumes are below (a local machine's kubelet). */
  hostPathRoot?: string;
  baseEnv: Record<string, string>;
  podIPs: PodIPs;
  backoff: BackOffSettings;
  /** containerLogMaxSize / containerLogMaxFiles. */
  logRotation: LogRotation;
  /** How often volumes are rewritten from the API (changed ConfigMaps/Secrets, token refresh). */
  volumeResyncMs: number;
  /** Retry interval while volumes or configuration cannot be prepared. */
  retryMs: number;
  log: Logger;
}

export class PodWorker {
  readonly uid: string;
  readonly podIP: string;
  private pod: k8s.V1Pod;
  private readonly init: ContainerState[];
  private readonly regular: ContainerState[];
  private readonly statusBuilder: PodStatusBuilder;
  private readonly startTime: string;
  private readonly log: Logger;
  private readonly events: PodEvents;
  private readonly probers = new Map<string, Prober>();
  private volumeDirs?: Map<string, string>;
  private volumesStale = true;
  private readonly mountRetry: MountRetry;
  private syncing?: Promise<void>;
  private syncAgain = false;
  private wake?: NodeJS.Timeout;
  private resync?: NodeJS.Timeout;
  private lastPublished?: string;
  /** The kubelet-owned conditions last written (see conditionsKey). */
  private lastConditions?: string;
  private publishing: Promise<void> = Promise.resolve();
  private stopping?: Promise<void>;
  private terminal = false;

  constructor(
    pod: k8s.V1Pod,
    readonly dir: string,
    private readonly deps: PodWorkerDeps,
  ) {
    this.pod = pod;
    this.uid = pod.metadata!.uid!;
    this.podIP = deps.podIPs.assign(pod);
    this.log = deps.log.child({ pod: `${pod.metadata!.namespace}/${pod.metadata!.name}` });
    this.events = new PodEvents(deps.clients.core, deps.nodeName, this.log);
    // After a kubelet restart the Pod's earlier restarts still count; its processes were killed, so this is one more.
    const before = new Map(
      (pod.status?.containerStatuses ?? []).concat(pod.status?.initContainerStatuses ?? []).map((s) => [s.name, s]),
    );
    const restartsBefore = (name: string) => {
      const s = before.get(name);
      return s ? s.restartCount + (s.state?.running || s.state?.terminated || s.lastState?.terminated ? 1 : 0) : 0;
    };
    this.init = (pod.spec?.initContainers ?? []).map(
      (c) => new ContainerState(c, true, deps.backoff, restartsBefore(c.name)),
    );
    this.regular = (pod.spec?.containers ?? []).map(
      (c) => new ContainerState(c, false, deps.backoff, restartsBefore(c.name)),
    );
    this.statusBuilder = new PodStatusBuilder(pod.status);
    this.mountRetry = new MountRetry(Math.min(deps.retryMs, MOUNT_RETRY_MAX_MS));
    this.startTime = pod.status?.startTime ? rfc3339(new Date(pod.status.startTime)) : rfc3339();
    // A Pod that already finished (before a kubelet restart) is not run again.
    this.terminal = pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
  }

  get namespace(): string {
    return this.pod.metadata!.namespace!;
  }

  get name(): string {
    return this.pod.metadata!.name!;
  }

  container(name: string): ContainerState | undefined {
    return [...this.init, ...this.regular].find((c) => c.name === name);
  }

  /** A newer version of the Pod from the API. */
  update(pod: k8s.V1Pod): void {
    this.pod = pod;
    // Someone else changed a condition the kubelet owns (the node lifecycle controller marks the pods of a node gone
    // silent not ready): the status is written again on the next sync, as kube's status manager reconciles it.
    if (this.lastConditions !== undefined && conditionsKey(pod.status?.conditions) !== this.lastConditions)
      this.lastPublished = undefined;
    if (pod.metadata?.deletionTimestamp) void this.terminate('delete');
    else this.kick();
  }

  start(): void {
    if (this.terminal) return;
    this.kick();
    this.scheduleResync();
  }

  /**
   * Stops every process (SIGTERM, then SIGKILL after the grace period, at most `maxGraceMs`). `delete`: the Pod is being
   * deleted, so the deletion is confirmed (grace 0) and the pod directory removed; `gone`: the Pod no longer exists,
   * the directory goes too; `shutdown`: the kubelet stops, the directory stays for the next one.
   */
  terminate(mode: 'delete' | 'gone' | 'shutdown', maxGraceMs = Infinity): Promise<void> {
    this.stopping ??= (async () => {
      clearTimeout(this.wake);
      clearTimeout(this.resync);
      await this.syncing;
      const graceSeconds =
        this.pod.metadata?.deletionGracePeriodSeconds ?? this.pod.spec?.terminationGracePeriodSeconds ?? 30;
      await this.stopAll(Math.min(graceSeconds * 1000, maxGraceMs));
      await this.publishing;
      if (mode === 'shutdown') return;
      if (mode === 'delete') await this.confirmDeletion();
      this.deps.tokens.forget(this.uid);
      this.deps.podIPs.release(this.uid);
      await rm(this.dir, { recursive: true, force: true });
    })();
    return this.stopping;
  }

  /** Synchronous last resort when the kubelet's own process exits. */
  killNow(): void {
    for (const c of [...this.init, ...this.regular]) c.process?.kill();
  }

  private async stopAll(graceMs: number): Promise<void> {
    await Promise.all(
      [...this.init, ...this.regular].map(async (c) => {
        if (!c.process) return;
        this.prober(c)?.stop();
        await c.process.stop(graceMs);
      }),
    );
  }

  private async confirmDeletion(): Promise<void> {
    try {
      await this.deps.clients.core.deleteNamespacedPod({
        name: this.name,
        namespace: this.namespace,
        body: { gracePeriodSeconds: 0, preconditions: { uid: this.uid } },
      });
      this.log.info('Pod stopped, deletion confirmed');
    } catch (err) {
      if (!isNotFound(err)) this.log.error({ err }, 'Confirming the Pod deletion failed');
    }
  }

  // Syncs run one at a time; a kick during a sync runs another one after it.
  private kick(): void {
    if (this.stopping || this.terminal) return;
    if (this.syncing) {
      this.syncAgain = true;
      return;
    }
    this.syncing = this.sync()
      .catch((err) => this.log.error({ err }, 'Pod sync failed'))
      .finally(() => {
        this.syncing = undefined;
        if (this.syncAgain) {
          this.syncAgain = false;
          this.kick();
        }
      });
  }

  private wakeAt(at: number): void {
    clearTimeout(this.wake);
    this.wake = setTimeout(() => this.kick(), Math.max(0, at - Date.now()));
  }

  private scheduleResync(): void {
    this.resync = setTimeout(() => {
      this.volumesStale = true;
      this.kick();
      this.scheduleResync();
    }, this.deps.volumeResyncMs);
  }

  private async sync(): Promise<void> {
    const reader = new ObjectReader(this.deps.clients.core, this.namespace);
    if (this.volumesStale) {
      try {
        this.volumeDirs = await materialiseVolumes({
          pod: this.pod,
          podDir: this.dir,
          reader,
          tokens: this.deps.tokens,
          allocatable: this.deps.allocatable,
          hostPathRoot: this.deps.hostPathRoot,
        });
        this.volumesStale = false;
        this.mountRetry.reset();
      } catch (err) {
        const message = (err as Error).message;
        this.log.info({ err: message }, 'Volumes not ready');
        // A volume that would make the kubelet write outside the pod directory is refused, as kube refuses bad mounts.
        const refused = err instanceof VolumeConfinementError;
        if (refused)
          void this.events.warning(
            this.pod,
            'FailedMount',
            `MountVolume.SetUp failed for volume ${JSON.stringify(err.volume)} : ${message}`,
          );
        if (!this.volumeDirs) {
          for (const c of [...this.init, ...this.regular]) {
            if (c.starts === 0)
              c.state = {
                waiting: {
                  reason: refused ? 'CreateContainerConfigError' : c.init ? 'PodInitializing' : 'ContainerCreating',
                  message,
                },
              };
          }
          this.publish();
          this.wakeAt(Date.now() + this.mountRetry.delay());
          return;
        }
      }
    }
    const due = (c: ContainerState) => c.startWanted && !c.running && Date.now() >= c.nextStartAt;
    const pendingInit = this.init.find((c) => !c.succeeded);
    const candidates = pendingInit ? [pendingInit] : this.regular;
    for (const c of candidates) if (due(c)) await this.startContainer(c, reader);
    // Containers that could not start (back-off, image or configuration errors) are tried again when due.
    const waiting = candidates.filter((c) => c.startWanted && !c.running).map((c) => c.nextStartAt);
    if (waiting.length > 0) this.wakeAt(Math.min(...waiting));
    this.publish();
  }

  private async startContainer(c: ContainerState, reader: ObjectReader): Promise<void> {
    let setup;
    try {
      setup = await prepareContainer({
        pod: { ...this.pod, status: { ...this.pod.status, podIP: this.podIP, podIPs: [{ ip: this.podIP }] } },
        podDir: this.dir,
        container: c.spec,
        volumeDirs: this.volumeDirs!,
        imageMap: this.deps.imageMap,
        reader,
        allocatable: this.deps.allocatable,
        baseEnv: this.deps.baseEnv,
        podRange: this.deps.podIPs.rangeOf(this.uid),
        log: this.log,
      });
    } catch (err) {
      if (err instanceof MissingBinaryError) {
        // As a container runtime reports a command its image does not have: the run ends at once with 127.
        void this.events.warning(this.pod, 'Failed', `Error: ${err.message}`, this.fieldPath(c));
        const now = rfc3339();
        c.beginRun();
        this.onExit(
          c,
          { exitCode: err.exitCode, reason: 'StartError', message: err.message, startedAt: now, finishedAt: now },
          0,
        );
        return;
      }
      if (!(err instanceof StartError)) throw err;
      void this.events.warning(this.pod, 'Failed', `Error: ${err.message}`, this.fieldPath(c));
      const imageFailure = err.reason === 'ErrImagePull';
      c.imageFailures = imageFailure ? c.imageFailures + 1 : 0;
      const reason = imageFailure && c.imageFailures > 1 ? 'ImagePullBackOff' : err.reason;
      c.state = {
        waiting: {
          reason,
          message:
            reason === 'ImagePullBackOff' ? `Back-off pulling image "${c.spec.image}": ${err.message}` : err.message,
        },
      };
      c.nextStartAt = Date.now() + (imageFailure ? Math.max(c.backoff.next(0), this.deps.retryMs) : this.deps.retryMs);
      this.log.info({ container: c.name, reason, message: err.message }, 'Container cannot start');
      return;
    }
    c.imageFailures = 0;
    c.setup = setup;
    c.beginRun();
    const startedAt = new Date();
    let proc: ContainerProcess;
    try {
      // The previous run's log stays for `kubectl logs --previous`; older ones go, as kube removes dead containers.
      await removeOldRuns(this.dir, c.name, c.restartCount - 1);
      proc = await ContainerProcess.start({
        ...setup,
        logPath: containerLogPath(this.dir, c.name, c.restartCount),
        logRotation: this.deps.logRotation,
      });
    } catch (err) {
      const finishedAt = rfc3339();
      this.onExit(
        c,
        {
          exitCode: 128,
          reason: 'StartError',
          message: (err as Error).message,
          startedAt: rfc3339(startedAt),
          finishedAt,
        },
        0,
      );
      return;
    }
    c.process = proc;
    c.state = { running: { startedAt: rfc3339(proc.startedAt) } };
    await recordPid(this.dir, c.name, proc.pid);
    this.log.info(
      { container: c.name, pid: proc.pid, argv: setup.argv, restartCount: c.restartCount },
      'Container started',
    );
    if (!c.init) this.startProber(c);
    void proc.exited.then(async (exit) => {
      await forgetPid(this.dir, c.name);
      this.onExit(
        c,
        {
          exitCode: exit.exitCode,
          ...(exit.signal ? { signal: exit.exitCode - 128 } : {}),
          reason: exit.exitCode === 0 ? 'Completed' : 'Error',
          ...(c.killReason ? { message: c.killReason } : {}),
          startedAt: rfc3339(proc.startedAt),
          finishedAt: rfc3339(exit.finishedAt),
          containerID: `local://${proc.pid}`,
        },
        exit.finishedAt.getTime() - proc.startedAt.getTime(),
      );
    });
  }

  private onExit(c: ContainerState, termination: Termination, ranMs: number): void {
    this.prober(c)?.stop();
    c.killReason = undefined;
    const policy = this.pod.spec?.restartPolicy ?? 'Always';
    const failed = termination.exitCode !== 0;
    const restart =
      !this.stopping &&
      !this.terminal &&
      (c.init ? failed && policy !== 'Never' : policy === 'Always' || (policy === 'OnFailure' && failed));
    c.endRun(termination, restart, restart ? c.backoff.next(ranMs) : 0, `${this.name}_${this.namespace}(${this.uid})`);
    this.log.info({ container: c.name, exitCode: termination.exitCode, restart }, 'Container exited');
    if (this.stopping) this.publish();
    else this.kick();
  }

  private fieldPath(c: ContainerState): string {
    return `spec.${c.init ? 'initContainers' : 'containers'}{${c.name}}`;
  }

  private prober(c: ContainerState): Prober | undefined {
    return this.probers.get(c.name);
  }

  private startProber(c: ContainerState): void {
    const prober = new Prober(
      { container: c.spec, env: c.setup!.env, cwd: c.setup!.cwd, host: this.podIP, exec: c.setup!.exec },
      {
        started: () => {
          c.started = true;
          this.publish();
        },
        ready: (ready) => {
          c.ready = ready;
          this.publish();
        },
        unhealthy: (kind, message) => {
          this.log.info({ container: c.name, probe: kind, message }, 'Container failed its probe, restarting it');
          c.killReason = `${kind} probe failed: ${message}`;
          const probe = kind === 'startup' ? c.spec.startupProbe : c.spec.livenessProbe;
          const grace =
            (probe?.terminationGracePeriodSeconds ?? this.pod.spec?.terminationGracePeriodSeconds ?? 30) * 1000;
          void c.process?.stop(grace);
        },
      },
    );
    this.probers.set(c.name, prober);
    prober.start();
  }

  // Status writes go out one at a time, and only when the status differs from the last one written.
  private publish(): void {
    this.publishing = this.publishing
      .then(() => this.writeStatus())
      .catch((err) => {
        this.lastPublished = undefined;
        if (!isNotFound(err)) this.log.error({ err }, 'Writing Pod status failed');
      });
  }

  private async writeStatus(): Promise<void> {
    const status = this.statusBuilder.build(this.pod, this.init, this.regular, this.startTime, this.podIP);
    if (!this.terminal && (status.phase === 'Succeeded' || status.phase === 'Failed')) {
      this.terminal = true;
      clearTimeout(this.wake);
      clearTimeout(this.resync);
      void this.stopAll(0);
    }
    const text = JSON.stringify(status);
    if (text === this.lastPublished) return;
    await this.deps.clients.core.patchNamespacedPodStatus(
      { name: this.name, namespace: this.namespace, body: { status } },
      MERGE_PATCH,
    );
    this.lastPublished = text;
    this.lastConditions = conditionsKey(status.conditions as k8s.V1PodCondition[]);
  }
}

const KUBELET_CONDITIONS = new Set(['PodScheduled', 'Initialized', 'ContainersReady', 'Ready']);

/** The statuses of the conditions the kubelet writes, comparable between what it wrote and what the API holds. */
function conditionsKey(conditions: k8s.V1PodCondition[] | undefined): string {
  return (conditions ?? [])
    .filter((c) => KUBELET_CONDITIONS.has(c.type))
    .map((c) => `${c.type}=${c.status}`)
    .sort()
    .join(',');
}
