// Materialises a Pod's volumes under `<pod dir>/volumes/<name>`: emptyDir as a directory, hostPath as the host
// path itself, persistentVolumeClaim as the directory of the claim's bound PersistentVolume (hostPath or local, as
// kind's local-path provisioner makes them: it outlives the Pod), configMap/secret/downwardAPI/projected as files
// written from the API. Called again periodically so
// changed ConfigMaps/Secrets and expiring tokens reach running programs. Every directory and file written for a volume
// stays inside the pod directory (see confined-path.ts); a volume that would leave it fails the Pod's start.
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type * as k8s from '@kubernetes/client-node';
import { podFieldValue } from '../pods/field-path.js';
import { configMapBytes, secretBytes, type ObjectReader } from '../pods/object-reader.js';
import { resourceFieldValue } from '../pods/resources.js';
import { assertResolvesWithin, confinedJoin, PathEscapeError } from './confined-path.js';
import { addFile, writeFileSet, type FileSet } from './file-set.js';
import type { ServiceAccountTokens } from './service-account-tokens.js';

const DEFAULT_MODE = 0o644;

export interface VolumeContext {
  pod: k8s.V1Pod;
  podDir: string;
  reader: ObjectReader;
  tokens: ServiceAccountTokens;
  allocatable: Record<string, string>;
  /** A local machine's root directory: hostPath volumes are below it. */
  hostPathRoot?: string;
}

/** A volume the kubelet refuses to set up because a path in it would leave the pod directory. */
export class VolumeConfinementError extends Error {
  constructor(
    readonly volume: string,
    cause: PathEscapeError,
  ) {
    super(`volume ${JSON.stringify(volume)}: ${cause.message}`, { cause });
  }
}

/** `<pod dir>/volumes/<name>`; throws a PathEscapeError when the name would leave that directory. */
export function volumeDir(podDir: string, name: string): string {
  return confinedJoin(join(podDir, 'volumes'), [name]);
}

/**
 * Writes every volume and returns where each one is, by volume name. The volumes are set up side by side (their
 * objects read from the API at once), as kube's volume manager mounts a Pod's volumes in parallel. Throws the error
 * of the first volume (in the Pod's order) that failed: a VolumeConfinementError (before anything of that volume is
 * written) when a volume's name or file paths would leave the pod directory.
 */
export async function materialiseVolumes(ctx: VolumeContext): Promise<Map<string, string>> {
  const volumes = ctx.pod.spec?.volumes ?? [];
  const results = await Promise.allSettled(volumes.map((volume) => materialise(volume, ctx)));
  const dirs = new Map<string, string>();
  results.forEach((result, i) => {
    const volume = volumes[i]!;
    if (result.status === 'fulfilled') return void dirs.set(volume.name, result.value);
    const err: unknown = result.reason;
    if (err instanceof PathEscapeError) throw new VolumeConfinementError(volume.name, err);
    throw new Error(`volume ${JSON.stringify(volume.name)}: ${(err as Error).message}`, { cause: err });
  });
  return dirs;
}

async function materialise(volume: k8s.V1Volume, ctx: VolumeContext): Promise<string> {
  if (volume.hostPath) return hostPath(machinePath(volume.hostPath, ctx.hostPathRoot));
  if (volume.persistentVolumeClaim) return claimedVolume(volume.persistentVolumeClaim, ctx);
  const dir = await assertResolvesWithin(ctx.podDir, volumeDir(ctx.podDir, volume.name));
  if (volume.emptyDir) {
    await mkdir(dir, { recursive: true });
    return dir;
  }
  const files: FileSet = new Map();
  if (volume.configMap) await configMapFiles(files, volume.configMap, volume.configMap.defaultMode, ctx);
  else if (volume.secret) await secretFiles(files, volume.secret, volume.secret.defaultMode, ctx);
  else if (volume.downwardAPI)
    downwardApiFiles(files, volume.downwardAPI.items ?? [], volume.downwardAPI.defaultMode, ctx);
  else if (volume.projected) await projectedFiles(files, volume.projected, ctx);
  else
    throw new Error(
      `volume type ${
        Object.keys(volume)
          .filter((k) => k !== 'name')
          .join(', ') || '(none)'
      } is not supported by the local kubelet`,
    );
  await writeFileSet(dir, files);
  return dir;
}

/** A hostPath of a local machine: the same path below its root directory (`..` stops at that root). */
function machinePath(source: k8s.V1HostPathVolumeSource, root: string | undefined): k8s.V1HostPathVolumeSource {
  return root ? { ...source, path: join(root, posix.resolve('/', source.path)) } : source;
}

async function hostPath(source: k8s.V1HostPathVolumeSource): Promise<string> {
  const type = source.type ?? '';
  if (type === 'DirectoryOrCreate') await mkdir(source.path, { recursive: true });
  else if (type === 'FileOrCreate') await writeFile(source.path, '', { flag: 'a' });
  else if (type === 'Directory' || type === 'File') {
    const info = await stat(source.path).catch(() => undefined);
    if (!info || (type === 'Directory' ? !info.isDirectory() : !info.isFile()))
      throw new Error(`hostPath ${source.path} is not a ${type.toLowerCase()}`);
  }
  return source.path;
}

/**
 * The directory of the PersistentVolume a claim is bound to. A claim that is missing, being deleted or not Bound yet,
 * or a volume that is not this claim's, fails with the kubelet's reason (the Pod keeps waiting in ContainerCreating and
 * the kubelet tries again).
 */
async function claimedVolume(source: k8s.V1PersistentVolumeClaimVolumeSource, ctx: VolumeContext): Promise<string> {
  const what = `error processing PVC ${ctx.reader.namespaceName}/${source.claimName}`;
  const claim = await ctx.reader.persistentVolumeClaim(source.claimName);
  if (!claim)
    throw new Error(
      `${what}: failed to fetch PVC from API server: persistentvolumeclaims "${source.claimName}" not found`,
    );
  if (claim.metadata?.deletionTimestamp) throw new Error(`${what}: PVC is being deleted`);
  const name = claim.spec?.volumeName;
  if (!name || claim.status?.phase !== 'Bound') throw new Error(`${what}: PVC is not bound`);
  const volume = await ctx.reader.persistentVolume(name);
  if (!volume)
    throw new Error(`${what}: failed to fetch PV ${name} from API server: persistentvolumes "${name}" not found`);
  const ref = volume.spec?.claimRef;
  if (ref?.uid !== claim.metadata?.uid)
    throw new Error(
      `${what}: expected PV ${name} to be bound to PVC ${ctx.reader.namespaceName}/${source.claimName}, it is bound to ${ref ? `${ref.namespace}/${ref.name}` : 'none'}`,
    );
  if (volume.spec?.hostPath) return hostPath(volume.spec.hostPath);
  if (volume.spec?.local) return hostPath({ path: volume.spec.local.path, type: 'Directory' });
  throw new Error(
    `${what}: PersistentVolume ${name} is neither hostPath nor local, which the local kubelet cannot mount`,
  );
}

type KeySource = { name?: string; items?: k8s.V1KeyToPath[]; optional?: boolean };

function keyFiles(
  files: FileSet,
  data: Map<string, Buffer>,
  source: KeySource,
  defaultMode = DEFAULT_MODE,
  what: string,
): void {
  if (!source.items?.length) {
    for (const [key, value] of data) addFile(files, key, value, defaultMode);
    return;
  }
  for (const item of source.items) {
    const value = data.get(item.key);
    if (value === undefined) {
      if (source.optional) continue;
      throw new Error(`${what} has no key ${JSON.stringify(item.key)}`);
    }
    addFile(files, item.path, value, item.mode ?? defaultMode);
  }
}

async function configMapFiles(
  files: FileSet,
  source: KeySource,
  mode: number | undefined,
  ctx: VolumeContext,
): Promise<void> {
  const cm = await ctx.reader.configMap(source.name ?? '');
  if (!cm && !source.optional) throw new Error(`configmap "${source.name}" not found`);
  keyFiles(files, cm ? configMapBytes(cm) : new Map(), source, mode, `configmap "${source.name}"`);
}

async function secretFiles(
  files: FileSet,
  source: KeySource & { secretName?: string },
  mode: number | undefined,
  ctx: VolumeContext,
): Promise<void> {
  const name = source.secretName ?? source.name ?? '';
  const secret = await ctx.reader.secret(name);
  if (!secret && !source.optional) throw new Error(`secret "${name}" not found`);
  keyFiles(files, secret ? secretBytes(secret) : new Map(), source, mode, `secret "${name}"`);
}

function downwardApiFiles(
  files: FileSet,
  items: k8s.V1DownwardAPIVolumeFile[],
  defaultMode = DEFAULT_MODE,
  ctx: VolumeContext,
): void {
  for (const item of items) {
    const value = item.fieldRef
      ? podFieldValue(ctx.pod, item.fieldRef.fieldPath, true)
      : item.resourceFieldRef
        ? resourceFieldValue(ctx.pod, item.resourceFieldRef, undefined, ctx.allocatable)
        : undefined;
    if (value === undefined)
      throw new Error(`downwardAPI item ${JSON.stringify(item.path)} has neither fieldRef nor resourceFieldRef`);
    addFile(files, item.path, Buffer.from(value), item.mode ?? defaultMode);
  }
}

async function projectedFiles(
  files: FileSet,
  projected: k8s.V1ProjectedVolumeSource,
  ctx: VolumeContext,
): Promise<void> {
  const mode = projected.defaultMode ?? DEFAULT_MODE;
  // The objects of all sources are read at once (the reader keeps them for this sync); the files are added in order.
  for (const source of projected.sources ?? []) {
    if (source.configMap) void ctx.reader.configMap(source.configMap.name ?? '').catch(() => undefined);
    else if (source.secret) void ctx.reader.secret(source.secret.name ?? '').catch(() => undefined);
  }
  for (const source of projected.sources ?? []) {
    if (source.configMap) await configMapFiles(files, source.configMap, mode, ctx);
    else if (source.secret) await secretFiles(files, source.secret, mode, ctx);
    else if (source.downwardAPI) downwardApiFiles(files, source.downwardAPI.items ?? [], mode, ctx);
    else if (source.serviceAccountToken) {
      addFile(
        files,
        source.serviceAccountToken.path,
        Buffer.from(await ctx.tokens.token(ctx.pod, source.serviceAccountToken)),
        mode,
      );
    } else throw new Error(`projected source ${Object.keys(source).join(', ')} is not supported by the local kubelet`);
  }
}
