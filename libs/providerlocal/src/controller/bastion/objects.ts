// The objects of a provider-local bastion (pure), as Gardener's provider-local makes them
// (pkg/provider-local/controller/bastion): in the shoot namespace, named `bastion-<name>` and labelled `app: bastion`,
// `bastion: <name>` — a Secret with the Bastion's user data (and, ours, its ingress ranges), the bastion Pod serving
// SSH on port 22 (ready when the port accepts connections), a LoadBalancer Service for port 22 whose ingress becomes
// the Bastion's `status.ingress`, and a NetworkPolicy letting SSH in and the bastion out to DNS and to the machine
// Pods' port 22. Gardener's bastion Pod runs the machine image with sshd; ours runs the bastion program
// (`gardener-ts/bastion`, @gardener-ts/providerlocal/ssh), which enforces the ingress ranges itself and finds the
// machines through the seed's API — hence also a ServiceAccount with a Role to read the namespace's Pods.
import { createHash } from 'node:crypto';
import type { KubernetesObject, PodObject } from '@gardener-ts/controller-runtime';
import type { ExtensionObject } from '@gardener-ts/extensions';
import { MachinePodLabels } from '../../machine/controller/machine/reconciler.js';
import { BastionConfigDir, IngressKey, UserDataKey } from '../../ssh/config.js';

/** The SSH port of the bastion (Gardener's `SSHPort`). */
export const SSHPort = 22;
/** The image of the bastion Pod: the bastion program. */
export const DefaultBastionImage = 'gardener-ts/bastion';
/** The annotation of the bastion Pod holding the hash of its Secret's data (a change replaces the Pod). */
export const ConfigChecksumAnnotation = 'checksum/secret-bastion';
/** Gardener's label that lets a Pod of a shoot namespace reach the seed's API server. */
export const ToRuntimeAPIServerLabel = 'networking.gardener.cloud/to-runtime-apiserver';

/** A provider-local Bastion (extensions.gardener.cloud/v1alpha1). */
export interface BastionObject extends ExtensionObject {
  spec: ExtensionObject['spec'] & {
    /** Base64 of the user data (Go's `[]byte`). */
    userData?: string;
    ingress?: { ipBlock: { cidr: string; except?: string[] } }[];
  };
}

/** The object every bastion object shares: name, namespace and labels. */
export function bastionMeta(bastion: BastionObject): {
  name: string;
  namespace: string;
  labels: Record<string, string>;
} {
  const name = bastion.metadata!.name!;
  return {
    name: `bastion-${name}`.slice(0, 63).replace(/-+$/, ''),
    namespace: bastion.metadata!.namespace!,
    labels: { app: 'bastion', bastion: name },
  };
}

/** The Secret's data: the user data as given and the ingress ranges as JSON (both base64, as Secret data is). */
export function bastionSecretData(bastion: BastionObject): Record<string, string> {
  return {
    [UserDataKey]: bastion.spec.userData ?? '',
    [IngressKey]: Buffer.from(JSON.stringify(bastion.spec.ingress ?? [])).toString('base64'),
  };
}

/** The hash of the Secret's data the Pod was started with. */
export function configChecksum(data: Record<string, string>): string {
  const hash = createHash('sha256');
  for (const key of Object.keys(data).sort()) hash.update(`${key}\0${data[key]}\0`);
  return hash.digest('hex');
}

type Object_ = KubernetesObject & Record<string, unknown>;

/** The Secret with the Bastion's user data and ingress ranges. */
export function bastionSecret(bastion: BastionObject): Object_ {
  const meta = bastionMeta(bastion);
  return { apiVersion: 'v1', kind: 'Secret', metadata: meta, type: 'Opaque', data: bastionSecretData(bastion) };
}

/** The bastion's ServiceAccount, Role (read the namespace's Pods) and RoleBinding. */
export function bastionRBAC(bastion: BastionObject): Object_[] {
  const meta = bastionMeta(bastion);
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta, automountServiceAccountToken: true },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: meta,
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: meta,
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: meta.name },
      subjects: [{ kind: 'ServiceAccount', name: meta.name, namespace: meta.namespace }],
    },
  ];
}

/** The bastion Pod running `image`, started with the Secret data hashed to `checksum`. */
export function bastionPod(bastion: BastionObject, image: string, checksum: string): PodObject {
  type Container = NonNullable<NonNullable<PodObject['spec']>['containers']>[number] & Record<string, unknown>;
  const meta = bastionMeta(bastion);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...meta,
      labels: { ...meta.labels, [ToRuntimeAPIServerLabel]: 'allowed' },
      annotations: { [ConfigChecksumAnnotation]: checksum },
    },
    spec: {
      serviceAccountName: meta.name,
      containers: [
        {
          name: 'bastion',
          image,
          imagePullPolicy: 'IfNotPresent',
          args: [`--port=${SSHPort}`],
          env: [{ name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }],
          ports: [{ name: 'ssh', containerPort: SSHPort, protocol: 'TCP' }],
          readinessProbe: { tcpSocket: { port: 'ssh' }, periodSeconds: 2 },
          volumeMounts: [{ name: 'bastion', mountPath: BastionConfigDir, readOnly: true }],
        } as Container,
      ],
      volumes: [{ name: 'bastion', secret: { secretName: meta.name } }],
    },
  };
}

/** The LoadBalancer Service for the bastion's SSH port. */
export function bastionService(bastion: BastionObject): Object_ {
  const meta = bastionMeta(bastion);
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta,
    spec: {
      type: 'LoadBalancer',
      selector: meta.labels,
      ports: [{ name: 'ssh', port: SSHPort, targetPort: 'ssh', protocol: 'TCP', appProtocol: 'ssh' }],
    },
  };
}

/** The NetworkPolicy: SSH in; DNS and the machine Pods' SSH port out. */
export function bastionNetworkPolicy(bastion: BastionObject): Object_ {
  const meta = bastionMeta(bastion);
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: meta,
    spec: {
      podSelector: { matchLabels: meta.labels },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [{ ports: [{ protocol: 'TCP', port: SSHPort }] }],
      egress: [
        {
          to: [
            {
              namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } },
              podSelector: { matchExpressions: [{ key: 'k8s-app', operator: 'In', values: ['kube-dns'] }] },
            },
          ],
          ports: [
            { protocol: 'UDP', port: 53 },
            { protocol: 'TCP', port: 53 },
            { protocol: 'UDP', port: 8053 },
            { protocol: 'TCP', port: 8053 },
          ],
        },
        {
          to: [{ podSelector: { matchLabels: { app: MachinePodLabels.app } } }],
          ports: [{ protocol: 'TCP', port: SSHPort }],
        },
      ],
    },
  };
}

/** Whether the Pod is Running and Ready. */
export function podReady(pod: PodObject | undefined): boolean {
  return (
    pod?.status?.phase === 'Running' &&
    (pod.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')
  );
}

/**
 * The address users reach the bastion at on port 22 (`status.ingress`), once the Service has a load balancer address:
 * that address when the load balancer serves the SSH port itself; when it serves another port (the local substrate's
 * load balancers share 127.0.0.1 and answer on the Service's node port, `ports[0].port`) the bastion Pod's own
 * address, which the host reaches on port 22. Only `ip`/`hostname`: port statuses without `error` are refused by the
 * Bastion CRD's schema (kube's PortStatus marks it required).
 */
export function bastionIngress(
  service: KubernetesObject | undefined,
  pod: PodObject | undefined,
): Record<string, string> | undefined {
  const status = (
    service as
      | { status?: { loadBalancer?: { ingress?: { ip?: string; hostname?: string; ports?: { port?: number }[] }[] } } }
      | undefined
  )?.status;
  const ingress = status?.loadBalancer?.ingress?.[0];
  if (!ingress || !(ingress.ip || ingress.hostname)) return undefined;
  const port = ingress.ports?.[0]?.port;
  if (port !== undefined && port !== SSHPort) return pod?.status?.podIP ? { ip: pod.status.podIP } : undefined;
  return { ...(ingress.ip ? { ip: ingress.ip } : {}), ...(ingress.hostname ? { hostname: ingress.hostname } : {}) };
}
