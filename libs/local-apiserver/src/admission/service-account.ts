// kube's ServiceAccount admission plugin for Pods: the `default` ServiceAccount unless one is named, which must
// exist; and, unless automounting is off (on the Pod or the ServiceAccount), a projected `kube-api-access-*` volume
// with a bound token, the cluster CA and the namespace, mounted into every container.
import { randomBytes } from 'node:crypto';
import { ApiError } from '../api/errors.js';
import { ROOT_CA_CONFIGMAP } from '../controllers/namespace-defaults.js';
import type { WriteStep } from '../server/pipeline.js';
import { defaultTolerationSeconds } from './default-toleration-seconds.js';
import type { KubeObject, Storage } from '../storage/types.js';

const MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const ALPHANUM = 'bcdfghjklmnpqrstvwxz2456789';

function suffix(): string {
  return [...randomBytes(5)].map((b) => ALPHANUM[b % ALPHANUM.length]).join('');
}

function tokenVolume(name: string): KubeObject {
  return {
    name,
    projected: {
      defaultMode: 0o644,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: ROOT_CA_CONFIGMAP, items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        {
          downwardAPI: {
            items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
          },
        },
      ],
    },
  };
}

/**
 * The built-in Pod admission plugins in kube's order: ServiceAccount, then DefaultTolerationSeconds (the server
 * assembly registers this one step for both).
 */
export function serviceAccountAdmission(storage: Storage): WriteStep {
  const serviceAccount = serviceAccountPlugin(storage);
  return async (r) => {
    await serviceAccount(r);
    await defaultTolerationSeconds(r);
  };
}

function serviceAccountPlugin(storage: Storage): WriteStep {
  return async (r) => {
    const d = r.definition;
    if (d.group !== '' || d.resource !== 'pods' || r.operation !== 'CREATE' || r.subresource !== '') return;
    // Mirror pods (a kubelet's static pods) get no ServiceAccount, as in kube.
    if ('kubernetes.io/config.mirror' in (r.object.metadata?.annotations ?? {})) return;
    const spec: KubeObject = (r.object.spec ??= {});
    spec.serviceAccountName ||= spec.serviceAccount || 'default';
    spec.serviceAccount = spec.serviceAccountName;
    const sa = await storage.get(`/registry/core/serviceaccounts/${r.namespace}/${spec.serviceAccountName}`);
    if (!sa) {
      throw new ApiError(
        403,
        'Forbidden',
        `pods "${r.name}" is forbidden: error looking up service account ${r.namespace}/${spec.serviceAccountName}: serviceaccount "${spec.serviceAccountName}" not found`,
        { name: r.name, kind: 'pods' },
      );
    }
    const automount = spec.automountServiceAccountToken ?? sa.object.automountServiceAccountToken ?? true;
    const containers: KubeObject[] = [...(spec.initContainers ?? []), ...(spec.containers ?? [])];
    const alreadyMounted = containers.some((c) =>
      (c.volumeMounts ?? []).some((m: KubeObject) => m.mountPath === MOUNT_PATH),
    );
    if (!automount || alreadyMounted) return;
    const volume = tokenVolume(`kube-api-access-${suffix()}`);
    spec.volumes = [...(spec.volumes ?? []), volume];
    for (const c of containers)
      c.volumeMounts = [...(c.volumeMounts ?? []), { name: volume.name, readOnly: true, mountPath: MOUNT_PATH }];
  };
}
