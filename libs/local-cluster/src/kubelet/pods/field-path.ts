// The Pod fields a container may read through the downward API (env `fieldRef` and downwardAPI volumes).
import type * as k8s from '@kubernetes/client-node';

export const HOST_IP = '127.0.0.1';

function formatMap(map: Record<string, string> = {}): string {
  return Object.keys(map)
    .sort()
    .map((k) => `${k}=${JSON.stringify(map[k])}`)
    .join('\n');
}

/** The value of `fieldPath` for `pod`; whole label/annotation maps only where `allowMaps` (volumes, not env). */
export function podFieldValue(pod: k8s.V1Pod, fieldPath: string, allowMaps = false): string {
  const meta = pod.metadata ?? {};
  const subscript = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(fieldPath);
  if (subscript) return (subscript[1] === 'labels' ? meta.labels : meta.annotations)?.[subscript[2]] ?? '';
  switch (fieldPath) {
    case 'metadata.name':
      return meta.name ?? '';
    case 'metadata.namespace':
      return meta.namespace ?? '';
    case 'metadata.uid':
      return meta.uid ?? '';
    case 'spec.nodeName':
      return pod.spec?.nodeName ?? '';
    case 'spec.serviceAccountName':
      return pod.spec?.serviceAccountName ?? '';
    case 'status.hostIP':
    case 'status.hostIPs':
      return HOST_IP;
    case 'status.podIP':
    case 'status.podIPs':
      return pod.status?.podIP ?? HOST_IP;
    case 'metadata.labels':
    case 'metadata.annotations':
      if (allowMaps) return formatMap(fieldPath === 'metadata.labels' ? meta.labels : meta.annotations);
  }
  throw new Error(`unsupported fieldPath ${JSON.stringify(fieldPath)}`);
}
