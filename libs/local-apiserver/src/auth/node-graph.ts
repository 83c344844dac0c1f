// The Node authorizer's graph (kube's plugin/pkg/auth/authorizer/node graph): which namespaced objects are related to
// a node through the pods bound to it (spec.nodeName) — the secrets, configmaps, PVCs and ServiceAccount a pod
// references, the PVs bound to those PVCs, the VolumeAttachments of the node. Instead of kube's incrementally
// maintained vertices and edges, the relations are derived from the objects themselves: a snapshot of pods, PVCs, PVs
// and VolumeAttachments that storage watches keep current answers each question, and a question the snapshot answers
// with "no" is asked again of storage directly, so a decision never lags a pod the kubelet has already seen.
import type { Logger } from '@gardener-ts/logging';
import type { KubeObject, Storage } from '../storage/types.js';
import { StorageSnapshot } from '../storage/snapshot.js';

export type VertexType =
  | 'secret'
  | 'configmap'
  | 'persistentvolumeclaim'
  | 'persistentvolume'
  | 'serviceaccount'
  | 'pod'
  | 'volumeattachment'
  | 'resourceclaim';

const PODS = '/registry/core/pods/';
const PVCS = '/registry/core/persistentvolumeclaims/';
const PVS = '/registry/core/persistentvolumes/';
const VOLUME_ATTACHMENTS = '/registry/storage.k8s.io/volumeattachments/';

/** Where the graph reads objects from: the watched snapshot or storage itself. */
export interface GraphSource {
  list(prefix: string): Promise<KubeObject[]> | KubeObject[];
}

/** The names of the secrets, configmaps and PVCs a pod references (kube's VisitPodSecretNames / ConfigMapNames, volumes). */
export function podReferences(pod: KubeObject): {
  secrets: Set<string>;
  configmaps: Set<string>;
  pvcs: Set<string>;
  resourceclaims: Set<string>;
} {
  const secrets = new Set<string>();
  const configmaps = new Set<string>();
  const pvcs = new Set<string>();
  const resourceclaims = new Set<string>();
  const spec: KubeObject = pod.spec ?? {};
  const add = (set: Set<string>, name: unknown) => typeof name === 'string' && name && set.add(name);
  for (const ref of spec.imagePullSecrets ?? []) add(secrets, ref?.name);
  for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])]) {
    for (const from of c?.envFrom ?? []) {
      add(secrets, from?.secretRef?.name);
      add(configmaps, from?.configMapRef?.name);
    }
    for (const env of c?.env ?? []) {
      add(secrets, env?.valueFrom?.secretKeyRef?.name);
      add(configmaps, env?.valueFrom?.configMapKeyRef?.name);
    }
  }
  for (const v of spec.volumes ?? []) {
    if (!v) continue;
    add(secrets, v.secret?.secretName);
    add(configmaps, v.configMap?.name);
    for (const source of v.projected?.sources ?? []) {
      add(secrets, source?.secret?.name);
      add(configmaps, source?.configMap?.name);
    }
    // Volume plugins that name a secret for the node to mount with.
    for (const plugin of ['azureFile'] as const) add(secrets, v[plugin]?.secretName);
    for (const plugin of ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'storageos', 'iscsi', 'csi'] as const) {
      add(secrets, v[plugin]?.secretRef?.name);
      add(secrets, v[plugin]?.nodePublishSecretRef?.name);
    }
    add(pvcs, v.persistentVolumeClaim?.claimName);
    // A generic ephemeral volume's PVC is named <pod>-<volume>.
    if (v.ephemeral) add(pvcs, `${pod.metadata?.name}-${v.name}`);
  }
  for (const s of pod.status?.resourceClaimStatuses ?? []) add(resourceclaims, s?.resourceClaimName);
  return { secrets, configmaps, pvcs, resourceclaims };
}

/** The secret names a PersistentVolume's source references (kube's graph adds PV → secret edges). */
function pvSecrets(pv: KubeObject): { namespace: string; name: string }[] {
  const out: { namespace: string; name: string }[] = [];
  const source: KubeObject = pv.spec ?? {};
  for (const value of Object.values(source)) {
    if (!value || typeof value !== 'object') continue;
    for (const field of [
      'secretRef',
      'nodePublishSecretRef',
      'nodeStageSecretRef',
      'controllerPublishSecretRef',
      'nodeExpandSecretRef',
    ] as const) {
      const ref = (value as KubeObject)[field];
      if (ref?.name) out.push({ namespace: ref.namespace ?? '', name: ref.name });
    }
  }
  return out;
}

async function podsOn(source: GraphSource, nodeName: string, namespace?: string): Promise<KubeObject[]> {
  const pods = await source.list(namespace ? `${PODS}${namespace}/` : PODS);
  return pods.filter((p) => p.spec?.nodeName === nodeName);
}

/** Whether the object of `type` `namespace/name` is related to node `nodeName` (kube's graph hasPathFrom). */
export async function hasPathFrom(
  source: GraphSource,
  nodeName: string,
  type: VertexType,
  namespace: string,
  name: string,
): Promise<boolean> {
  switch (type) {
    case 'pod':
      return (await podsOn(source, nodeName, namespace)).some((p) => p.metadata?.name === name);
    case 'serviceaccount':
      return (await podsOn(source, nodeName, namespace)).some(
        (p) => (p.spec?.serviceAccountName || 'default') === name,
      );
    case 'configmap':
      return (await podsOn(source, nodeName, namespace)).some((p) => podReferences(p).configmaps.has(name));
    case 'persistentvolumeclaim':
      return (await podsOn(source, nodeName, namespace)).some((p) => podReferences(p).pvcs.has(name));
    case 'resourceclaim':
      return (await podsOn(source, nodeName, namespace)).some((p) => podReferences(p).resourceclaims.has(name));
    case 'volumeattachment':
      return (await source.list(VOLUME_ATTACHMENTS)).some(
        (va) => va.metadata?.name === name && va.spec?.nodeName === nodeName,
      );
    case 'persistentvolume':
      return pvOnNode(source, nodeName, name);
    case 'secret': {
      if ((await podsOn(source, nodeName, namespace)).some((p) => podReferences(p).secrets.has(name))) return true;
      // A secret a related PV's source names (kube: PV → secret edges).
      for (const pv of await source.list(PVS)) {
        if (!pvSecrets(pv).some((ref) => ref.name === name && ref.namespace === namespace)) continue;
        if (await pvOnNode(source, nodeName, pv.metadata?.name)) return true;
      }
      return false;
    }
  }
}

/** A PV is related when a PVC bound to it (spec.volumeName) is used by a pod on the node. */
async function pvOnNode(source: GraphSource, nodeName: string, pvName: string): Promise<boolean> {
  const claims = (await source.list(PVCS)).filter((c) => c.spec?.volumeName === pvName);
  for (const claim of claims) {
    const namespace = claim.metadata?.namespace ?? '';
    if ((await podsOn(source, nodeName, namespace)).some((p) => podReferences(p).pvcs.has(claim.metadata?.name)))
      return true;
  }
  return false;
}

/** The graph's inputs: watched snapshots, and storage for a second look when the snapshot says no. */
export class NodeGraph {
  private readonly snapshots: StorageSnapshot[];
  private readonly snapshotSource: GraphSource;
  private readonly storageSource: GraphSource;

  constructor(storage: Storage, log?: Logger) {
    this.snapshots = [PODS, PVCS, PVS, VOLUME_ATTACHMENTS].map((prefix) => new StorageSnapshot(storage, prefix, log));
    this.snapshotSource = { list: (prefix) => this.snapshots.find((s) => prefix.startsWith(s.prefix))!.under(prefix) };
    this.storageSource = { list: (prefix) => listAll(storage, prefix) };
  }

  async start(): Promise<void> {
    await Promise.all(this.snapshots.map((s) => s.start()));
  }

  stop(): void {
    for (const s of this.snapshots) s.stop();
  }

  async hasPathFrom(nodeName: string, type: VertexType, namespace: string, name: string): Promise<boolean> {
    return (
      (await hasPathFrom(this.snapshotSource, nodeName, type, namespace, name)) ||
      hasPathFrom(this.storageSource, nodeName, type, namespace, name)
    );
  }
}

async function listAll(storage: Storage, prefix: string): Promise<KubeObject[]> {
  const out: KubeObject[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await storage.list({ prefix, limit: 500, after });
    for (const item of page.items) out.push(item.object);
    if (!page.more || page.items.length === 0) return out;
    after = page.items[page.items.length - 1].key;
  }
}
