// How control plane components reach the shoot's API server the Gardener way: a `shoot-access-<name>` Secret whose
// token gardener-resource-manager's token requestor fills for a ServiceAccount in the shoot's kube-system, and the
// `generic-token-kubeconfig` Secret (server `https://kube-apiserver`, the cluster CA, a token file), mounted together
// as one projected volume.
import { createHash } from 'node:crypto';
import { Annotations, Labels } from '@gardener-ts/api';
import type { V1Secret, V1Volume, V1VolumeMount } from '@kubernetes/client-node';
import { parse, stringify } from 'yaml';
import { KubeAPIServerName } from './kube-apiserver.js';
import type { ShootValues } from './values.js';

/** Where a component finds the generic kubeconfig and the token next to it. */
export const GenericKubeconfigDir = '/var/run/secrets/gardener.cloud/shoot/generic-kubeconfig';
/** The kubeconfig file of {@link GenericKubeconfigDir}. */
export const GenericKubeconfigPath = `${GenericKubeconfigDir}/kubeconfig`;
/** The purpose label value marking Secrets the token requestor fills. */
export const TokenRequestorPurpose = 'token-requestor';

/** The name of a component's shoot access Secret (`shoot-access-<name>`). */
export function shootAccessSecretName(name: string): string {
  return `shoot-access-${name}`;
}

/** Options of {@link renderShootAccessSecret} (Gardener's `ShootAccessSecret` builder). */
export interface ShootAccessSecretOptions {
  /** The Secret's name instead of `shoot-access-<name>` (Gardener's `WithNameOverride`: `gardener`, `gardener-internal`). */
  readonly secretName?: string;
  /** The token's lifetime (`serviceaccount.resources.gardener.cloud/token-expiration-duration`, e.g. `24h`). */
  readonly tokenExpirationDuration?: string;
  /** A kubeconfig (YAML) whose current user's token the token requestor fills, instead of a `token` key. */
  readonly kubeconfig?: string;
}

/**
 * The shoot access Secret of a component: labelled for the token requestor of the shoot's gardener-resource-manager
 * (`resources.gardener.cloud/purpose=token-requestor`, class `shoot`), which writes a token of ServiceAccount
 * `kube-system/<name>` into it (into `token`, or into the current user of `kubeconfig` when the Secret has one).
 */
export function renderShootAccessSecret(
  values: ShootValues,
  name: string,
  options: ShootAccessSecretOptions = {},
): V1Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: options.secretName ?? shootAccessSecretName(name),
      namespace: values.namespace,
      labels: { 'resources.gardener.cloud/purpose': TokenRequestorPurpose, [Labels.ResourcesClass]: 'shoot' },
      annotations: {
        [Annotations.ServiceAccountName]: name,
        [Annotations.ServiceAccountNamespace]: 'kube-system',
        ...(options.tokenExpirationDuration
          ? { [Annotations.ServiceAccountTokenExpirationDuration]: options.tokenExpirationDuration }
          : {}),
      },
    },
    type: 'Opaque',
    ...(options.kubeconfig ? { data: { kubeconfig: Buffer.from(options.kubeconfig).toString('base64') } } : {}),
  };
}

interface RawKubeconfig {
  'current-context'?: string;
  contexts?: { name: string; context?: { user?: string } }[];
  users?: { name: string; user?: Record<string, unknown> }[];
}

/** The token of the current context's user of a kubeconfig (YAML), if it has one (pure). */
export function kubeconfigToken(kubeconfig: string): string | undefined {
  const raw = parse(kubeconfig) as RawKubeconfig | null;
  const userName = raw?.contexts?.find((c) => c.name === raw['current-context'])?.context?.user;
  const token = raw?.users?.find((u) => u.name === userName)?.user?.token;
  return typeof token === 'string' && token ? token : undefined;
}

/**
 * `kubeconfig` (YAML) with `token` as the token of its current context's user (pure): the gardenlet rewrites a shoot
 * access kubeconfig (a new CA, a new server) without dropping the token the token requestor filled in, as Gardener's
 * `ShootAccessSecret.Reconcile` keeps it.
 */
export function withKubeconfigToken(kubeconfig: string, token: string | undefined): string {
  if (!token) return kubeconfig;
  const raw = parse(kubeconfig) as RawKubeconfig;
  const userName = raw.contexts?.find((c) => c.name === raw['current-context'])?.context?.user;
  const user = raw.users?.find((u) => u.name === userName);
  if (!user) return kubeconfig;
  user.user = { ...user.user, token };
  return stringify(raw);
}

/** A kubeconfig (YAML) for one cluster and one user (Gardener's `kubernetesutils.NewKubeconfig`), named `name`. */
export function kubeconfigYAML(
  name: string,
  cluster: { server: string; caPEM: string },
  user: Record<string, unknown>,
): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': name,
    clusters: [
      {
        name,
        cluster: {
          server: cluster.server,
          'certificate-authority-data': Buffer.from(cluster.caPEM).toString('base64'),
        },
      },
    ],
    contexts: [{ name, context: { cluster: name, user: name } }],
    users: [{ name, user }],
  });
}

/** The generic token kubeconfig Secret for the cluster CA bundle (PEM), named by its checksum. */
export function renderGenericTokenKubeconfigSecret(values: ShootValues, caBundlePEM: string): V1Secret {
  const kubeconfig = stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: values.namespace,
        cluster: {
          server: `https://${KubeAPIServerName}`,
          'certificate-authority-data': Buffer.from(caBundlePEM).toString('base64'),
        },
      },
    ],
    users: [
      { name: 'extensions.gardener.cloud:system:shoot-access', user: { tokenFile: `${GenericKubeconfigDir}/token` } },
    ],
    contexts: [
      {
        name: values.namespace,
        context: { cluster: values.namespace, user: 'extensions.gardener.cloud:system:shoot-access' },
      },
    ],
    'current-context': values.namespace,
  });
  const suffix = createHash('sha256').update(kubeconfig).digest('hex').slice(0, 8);
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `generic-token-kubeconfig-${suffix}`, namespace: values.namespace },
    type: 'Opaque',
    stringData: { kubeconfig },
  };
}

/** The projected volume and mount giving a container the generic kubeconfig and its shoot access token. */
export function shootAccessVolume(
  genericKubeconfigSecret: string,
  accessName: string,
): { volume: V1Volume; mount: V1VolumeMount } {
  return {
    volume: {
      name: 'kubeconfig',
      projected: {
        defaultMode: 0o420,
        sources: [
          {
            secret: {
              name: genericKubeconfigSecret,
              items: [{ key: 'kubeconfig', path: 'kubeconfig' }],
              optional: false,
            },
          },
          {
            secret: {
              name: shootAccessSecretName(accessName),
              items: [{ key: 'token', path: 'token' }],
              optional: false,
            },
          },
        ],
      },
    },
    mount: { name: 'kubeconfig', mountPath: GenericKubeconfigDir, readOnly: true },
  };
}
