// gardener-node-agent's OperatingSystemConfig controller: reads the OSC from its Secret in the shoot's kube-system,
// plans against the configuration applied last (`/var/lib/gardener-node-agent/last-applied-osc.yaml` below the
// machine's root), applies files and units, remembers what it applied, and sets the Node's
// `checksum/cloud-config-data` annotation to the OSC's checksum so gardenlet sees the node is up to date.
// Reconciles one Secret at a time (Gardener's node-agent reconciles serially).
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  Kinds,
  ignoreNotFound,
  type Client,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import { applyPlan } from '../../osc/apply.js';
import { isEmptyPlan, planOSC } from '../../osc/planner.js';
import {
  NodeCloudConfigChecksumAnnotation,
  OSCChecksumAnnotation,
  OSCSecretDataKey,
  nodeConfigFromOSC,
  parseOSC,
} from '../../osc/resolve.js';
import type { NodeConfig } from '../../osc/types.js';
import { nodePath } from '../../units/paths.js';
import type { UnitManager } from '../../units/runner.js';

/** Where node-agent keeps the OSC it applied last (Gardener's path). */
export const LastAppliedOSCPath = '/var/lib/gardener-node-agent/last-applied-osc.yaml';

/** What the reconciler needs. */
export interface OperatingSystemConfigReconcilerDeps {
  /** The shoot client: reads node-agent's Secret, patches the Node. */
  client: Pick<Client, 'get' | 'patch'>;
  rootDir: string;
  units: UnitManager;
  /** The Node of this machine (its hostname); until the kubelet registered it, no annotation is written. */
  nodeName: string;
  /** How long until a Node not registered yet is looked for again; NodeRegistrationRequeueMs by default. */
  nodeRegistrationRequeueMs?: number;
}

/** How long the reconciler waits before it looks for a Node that is not registered yet. */
export const NodeRegistrationRequeueMs = 5_000;

/** Applies the OSC of node-agent's Secret on this machine. */
export class OperatingSystemConfigReconciler {
  constructor(private readonly deps: OperatingSystemConfigReconcilerDeps) {}

  async reconcile(req: Request, ctx: Pick<ReconcileContext, 'log'>): Promise<ReconcileResult | void> {
    const { client, rootDir, units, nodeName } = this.deps;
    const secret = await client.get(Kinds.Secret, req).catch(ignoreNotFound);
    if (!secret) return;
    const encoded = secret.data?.[OSCSecretDataKey];
    if (encoded === undefined) {
      throw new Error(`Secret ${req.namespace}/${req.name} has no ${OSCSecretDataKey}`);
    }
    const text = Buffer.from(encoded, 'base64').toString('utf8');
    const next = nodeConfigFromOSC(parseOSC(text));
    const previous = await this.lastApplied(ctx);
    const plan = planOSC(previous, next);
    if (!isEmptyPlan(plan)) {
      ctx.log.info(
        {
          files: plan.files.write.length,
          removedFiles: plan.files.remove.length,
          start: plan.units.start,
          restart: plan.units.restart,
          stop: plan.units.stop,
        },
        'Applying the OperatingSystemConfig',
      );
    }
    await applyPlan(plan, { rootDir, units });
    const lastApplied = nodePath(rootDir, LastAppliedOSCPath);
    await mkdir(dirname(lastApplied), { recursive: true });
    await writeFile(lastApplied, text, { mode: 0o600 });

    const checksum =
      secret.metadata?.annotations?.[OSCChecksumAnnotation] ?? createHash('sha256').update(text).digest('hex');
    const node = await client.get(Kinds.Node, { namespace: '', name: nodeName }).catch(ignoreNotFound);
    if (!node) {
      // Gardener's node-agent: the kubelet this OSC started registers the Node shortly; annotate it then.
      ctx.log.info({ node: nodeName }, 'Waiting for Node to get registered by kubelet, requeuing');
      return { requeueAfter: this.deps.nodeRegistrationRequeueMs ?? NodeRegistrationRequeueMs };
    }
    if (node.metadata?.annotations?.[NodeCloudConfigChecksumAnnotation] !== checksum) {
      await client.patch(
        Kinds.Node,
        { namespace: '', name: nodeName },
        { type: 'merge', patch: { metadata: { annotations: { [NodeCloudConfigChecksumAnnotation]: checksum } } } },
      );
    }
  }

  /** The configuration applied last; none on a fresh machine or when the file cannot be read as an OSC. */
  private async lastApplied(ctx: Pick<ReconcileContext, 'log'>): Promise<NodeConfig | undefined> {
    const text = await readFile(nodePath(this.deps.rootDir, LastAppliedOSCPath), 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    try {
      return nodeConfigFromOSC(parseOSC(text));
    } catch (err) {
      ctx.log.warn({ err }, 'The last applied OperatingSystemConfig cannot be read; applying everything');
      return undefined;
    }
  }
}
