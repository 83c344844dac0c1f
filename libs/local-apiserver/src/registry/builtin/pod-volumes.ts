// kube's validation of a pod spec's volumes and volume mounts (k8s.io/kubernetes/pkg/apis/core/validation
// ValidateVolumes, validateVolumeSource, ValidateVolumeMounts), with kube's field paths and messages: volume names
// are unique DNS-1123 labels, a volume has exactly one source, item and subPath paths are relative and never step out
// with '..', mounts name an existing (valid) volume at a unique, non-empty mountPath. The kubelet writes volume
// contents under these names and paths, so this is the first fence that keeps a pod inside its directory.
import { dns1123LabelErrors } from '@gardener-ts/api';
import type { FieldProblem } from '../../schema/types.js';
import { duplicate, forbidden, invalid, notFound, required } from './field-problems.js';
import type { KubeObject } from '../../storage/types.js';

/** The volume source fields of core/v1 VolumeSource, in the order kube's validateVolumeSource checks them. */
export const VOLUME_SOURCES = [
  'hostPath',
  'emptyDir',
  'gitRepo',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'flocker',
  'persistentVolumeClaim',
  'rbd',
  'cinder',
  'cephfs',
  'quobyte',
  'downwardAPI',
  'fc',
  'flexVolume',
  'configMap',
  'azureFile',
  'vsphereVolume',
  'photonPersistentDisk',
  'portworxVolume',
  'azureDisk',
  'storageos',
  'projected',
  'scaleIO',
  'csi',
  'ephemeral',
  'image',
] as const;

const FILE_MODE = 'must be a number between 0 and 0777 (octal), both inclusive';

const isAbsolute = (p: string) => p.startsWith('/');

/** kube's validateLocalDescendingPath: relative, and no '..' element. */
export function localDescendingPathProblems(target: string, field: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (isAbsolute(target)) problems.push(invalid(field, target, 'must be a relative path'));
  if (target.replace(/\\/g, '/').split('/').includes('..'))
    problems.push(invalid(field, target, "must not contain '..'"));
  return problems;
}

/** kube's validateLocalNonReservedPath: a descending path that does not start with '..' either (e.g. `..data`). */
function localNonReservedPathProblems(target: string, field: string): FieldProblem[] {
  const problems = localDescendingPathProblems(target, field);
  if (target.startsWith('..') && !target.startsWith('../'))
    problems.push(invalid(field, target, "must not start with '..'"));
  return problems;
}

function modeProblems(mode: unknown, field: string): FieldProblem[] {
  if (mode === undefined || mode === null) return [];
  return typeof mode === 'number' && mode >= 0 && mode <= 0o777 ? [] : [invalid(field, mode, FILE_MODE)];
}

/** kube's validateKeyToPath for configMap/secret items. */
function keyToPathProblems(items: unknown, field: string): FieldProblem[] {
  if (!Array.isArray(items)) return [];
  return items.flatMap((item: KubeObject, i: number) => {
    const at = `${field}[${i}]`;
    const problems: FieldProblem[] = [];
    if (!item?.key) problems.push(required(`${at}.key`));
    if (!item?.path) problems.push(required(`${at}.path`));
    problems.push(
      ...localNonReservedPathProblems(String(item?.path ?? ''), `${at}.path`),
      ...modeProblems(item?.mode, `${at}.mode`),
    );
    return problems;
  });
}

/** kube's validateDownwardAPIVolumeFile paths. */
function downwardAPIItemProblems(items: unknown, field: string): FieldProblem[] {
  if (!Array.isArray(items)) return [];
  return items.flatMap((item: KubeObject, i: number) => {
    const at = `${field}[${i}]`;
    const problems: FieldProblem[] = [];
    if (!item?.path) problems.push(required(`${at}.path`));
    problems.push(
      ...localNonReservedPathProblems(String(item?.path ?? ''), `${at}.path`),
      ...modeProblems(item?.mode, `${at}.mode`),
    );
    if (!item?.fieldRef && !item?.resourceFieldRef)
      problems.push(required(at, 'one of fieldRef and resourceFieldRef is required'));
    return problems;
  });
}

/** The checks of one volume source (only the parts that name files or objects). */
function sourceProblems(name: string, source: KubeObject, field: string): FieldProblem[] {
  switch (name) {
    case 'hostPath':
      return source.path ? [] : [required(`${field}.path`)];
    case 'secret':
      return [
        ...(source.secretName ? [] : [required(`${field}.secretName`)]),
        ...modeProblems(source.defaultMode, `${field}.defaultMode`),
        ...keyToPathProblems(source.items, `${field}.items`),
      ];
    case 'configMap':
      return [
        ...(source.name ? [] : [required(`${field}.name`)]),
        ...modeProblems(source.defaultMode, `${field}.defaultMode`),
        ...keyToPathProblems(source.items, `${field}.items`),
      ];
    case 'downwardAPI':
      return [
        ...modeProblems(source.defaultMode, `${field}.defaultMode`),
        ...downwardAPIItemProblems(source.items, `${field}.items`),
      ];
    case 'persistentVolumeClaim':
      return source.claimName ? [] : [required(`${field}.claimName`)];
    case 'projected':
      return projectedProblems(source, field);
    default:
      return [];
  }
}

/** kube's validateProjectedVolumeSource: each source one kind; item paths as above; token paths relative. */
function projectedProblems(source: KubeObject, field: string): FieldProblem[] {
  const problems = modeProblems(source.defaultMode, `${field}.defaultMode`);
  (Array.isArray(source.sources) ? source.sources : []).forEach((projection: KubeObject, i: number) => {
    const at = `${field}.sources[${i}]`;
    const kinds = [
      'secret',
      'configMap',
      'downwardAPI',
      'serviceAccountToken',
      'clusterTrustBundle',
      'podCertificate',
    ].filter((k) => projection?.[k] != null);
    for (const extra of kinds.slice(1))
      problems.push(forbidden(`${at}.${extra}`, 'may not specify more than 1 volume type per source'));
    if (projection?.secret) problems.push(...keyToPathProblems(projection.secret.items, `${at}.secret.items`));
    if (projection?.configMap) problems.push(...keyToPathProblems(projection.configMap.items, `${at}.configMap.items`));
    if (projection?.downwardAPI)
      problems.push(...downwardAPIItemProblems(projection.downwardAPI.items, `${at}.downwardAPI.items`));
    if (projection?.serviceAccountToken) {
      const path = String(projection.serviceAccountToken.path ?? '');
      if (!path) problems.push(required(`${at}.serviceAccountToken.path`));
      problems.push(...localNonReservedPathProblems(path, `${at}.serviceAccountToken.path`));
    }
    if (projection?.clusterTrustBundle) {
      const path = String(projection.clusterTrustBundle.path ?? '');
      if (!path) problems.push(required(`${at}.clusterTrustBundle.path`));
      problems.push(...localNonReservedPathProblems(path, `${at}.clusterTrustBundle.path`));
    }
  });
  return problems;
}

/**
 * kube's ValidateVolumes: the problems and the names of the valid volumes (an invalid volume is not among them, so
 * mounts of it are "Not found" too, as in kube).
 */
export function volumeProblems(volumes: unknown, field: string): { problems: FieldProblem[]; names: Set<string> } {
  const names = new Set<string>();
  const problems: FieldProblem[] = [];
  (Array.isArray(volumes) ? volumes : []).forEach((volume: KubeObject, i: number) => {
    const at = `${field}[${i}]`;
    const own: FieldProblem[] = [];
    const present = VOLUME_SOURCES.filter((s) => volume?.[s] != null);
    if (present.length === 0) own.push(required(at, 'must specify a volume type'));
    for (const extra of present.slice(1))
      own.push(forbidden(`${at}.${extra}`, 'may not specify more than 1 volume type'));
    if (present.length > 0) own.push(...sourceProblems(present[0], volume[present[0]], `${at}.${present[0]}`));
    const name = typeof volume?.name === 'string' ? volume.name : '';
    if (name.length === 0) own.push(required(`${at}.name`));
    else own.push(...dns1123LabelErrors(name).map((m) => invalid(`${at}.name`, name, m)));
    if (names.has(name)) own.push(duplicate(`${at}.name`, name));
    if (own.length === 0) names.add(name);
    problems.push(...own);
  });
  return { problems, names };
}

/** kube's ValidateVolumeMounts of one container (`field` is `...containers[i].volumeMounts`). */
export function volumeMountProblems(mounts: unknown, volumes: Set<string>, field: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const mountPoints = new Set<string>();
  (Array.isArray(mounts) ? mounts : []).forEach((mount: KubeObject, i: number) => {
    const at = `${field}[${i}]`;
    const name = typeof mount?.name === 'string' ? mount.name : '';
    const mountPath = typeof mount?.mountPath === 'string' ? mount.mountPath : '';
    if (name.length === 0) problems.push(required(`${at}.name`));
    if (!volumes.has(name)) problems.push(notFound(`${at}.name`, name));
    if (mountPath.length === 0) problems.push(required(`${at}.mountPath`));
    if (mountPoints.has(mountPath)) problems.push(invalid(`${at}.mountPath`, mountPath, 'must be unique'));
    mountPoints.add(mountPath);
    // kube reports subPath problems on the list's path (`volumeMounts.subPath`), without the index.
    const subPath = typeof mount?.subPath === 'string' ? mount.subPath : '';
    const subPathExpr = typeof mount?.subPathExpr === 'string' ? mount.subPathExpr : '';
    if (subPath) problems.push(...localDescendingPathProblems(subPath, `${field}.subPath`));
    if (subPathExpr) {
      if (subPath)
        problems.push(invalid(`${at}.subPathExpr`, subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      problems.push(...localDescendingPathProblems(subPathExpr, `${field}.subPathExpr`));
    }
  });
  return problems;
}
