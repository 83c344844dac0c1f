// The secrets the gardenlet's secrets manager generates for a shoot's control plane (Gardener's botanist
// `InitializeSecretsManagement` and the components' own `Generate` calls): the CAs, the kube-apiserver's server and
// client certificates, the service account key, etcd's CA and certificates, the ETCD encryption key and the static
// token file. Pure: the configs only; `generateAllSecrets` of `@gardener-ts/secrets-manager` turns them into Secrets.
import type { KeySpec, SecretConfigWithOptions } from '@gardener-ts/secrets-manager';
import { apiServerDomains, kubernetesServiceIP, shootNetworks, type ShootValues } from './values.js';

/** The names of the shoot secrets configs (Gardener's `v1beta1constants.SecretName*` and component secret names). */
export const SecretNames = {
  CACluster: 'ca',
  CAClient: 'ca-client',
  CAETCD: 'ca-etcd',
  CAFrontProxy: 'ca-front-proxy',
  CAKubelet: 'ca-kubelet',
  KubeAPIServer: 'kube-apiserver',
  KubeAPIServerKubelet: 'kube-apiserver-kubelet',
  KubeAggregator: 'kube-aggregator',
  ServiceAccountKey: 'service-account-key',
  ETCDEncryptionKey: 'kube-apiserver-etcd-encryption-key',
  StaticToken: 'kube-apiserver-static-token',
  ETCDServerMain: 'etcd-server-main',
  ETCDServerEvents: 'etcd-server-events',
  ETCDClient: 'etcd-client',
  KubeControllerManagerServer: 'kube-controller-manager-server',
  KubeSchedulerServer: 'kube-scheduler-server',
} as const;

/** Users of the static token file (kube-apiserver `--token-auth-file`). */
export const StaticTokenUsers = [{ username: 'health-check', userID: 'health-check' }] as const;

/** Options of {@link shootSecretConfigs}. */
export interface SecretConfigOptions {
  /** Key of the certificates; RSA 3072 (Gardener's) when unset. ECDSA P-256 is much faster to generate locally. */
  readonly key?: KeySpec;
}

/** The DNS names of the kube-apiserver's serving certificate. */
export function kubeAPIServerDNSNames(values: ShootValues): string[] {
  const domains = apiServerDomains(values);
  return [
    'kube-apiserver',
    `kube-apiserver.${values.namespace}`,
    `kube-apiserver.${values.namespace}.svc`,
    'kubernetes',
    'kubernetes.default',
    'kubernetes.default.svc',
    'kubernetes.default.svc.cluster.local',
    'localhost',
    ...(domains.internal ? [domains.internal] : []),
    ...(domains.external ? [domains.external] : []),
  ];
}

/** The DNS names of an etcd's serving certificate (its client and peer Services). */
export function etcdDNSNames(role: 'main' | 'events', namespace: string): string[] {
  const name = `etcd-${role}`;
  const service = (svc: string) => [
    svc,
    `${svc}.${namespace}`,
    `${svc}.${namespace}.svc`,
    `${svc}.${namespace}.svc.cluster.local`,
  ];
  return [`${name}-local`, ...service(`${name}-client`), ...service(`*.${name}-peer`)];
}

/**
 * The secrets configs of a shoot control plane, CAs first. Certificates are signed by their CA config (`signedByCA`),
 * the service account key keeps its old key during a rotation (`KeepOld`), the CAs are persisted (`persist`) so they
 * travel with a control plane migration in the ShootState.
 */
export function shootSecretConfigs(values: ShootValues, options: SecretConfigOptions = {}): SecretConfigWithOptions[] {
  const key = options.key ? { key: options.key } : {};
  const ca = (name: string, commonName = name): SecretConfigWithOptions => ({
    config: { kind: 'certificate', name, commonName, certType: 'ca', ...key },
    options: { persist: true, rotate: 'KeepOld' },
  });
  const serviceIP = kubernetesServiceIP(shootNetworks(values).services);
  return [
    ca(SecretNames.CACluster, 'kubernetes'),
    ca(SecretNames.CAClient, 'kubernetes-client'),
    ca(SecretNames.CAETCD, 'etcd'),
    ca(SecretNames.CAFrontProxy, 'front-proxy'),
    ca(SecretNames.CAKubelet, 'kubelet'),
    {
      config: {
        kind: 'certificate',
        name: SecretNames.KubeAPIServer,
        commonName: 'kube-apiserver',
        certType: 'server',
        dnsNames: kubeAPIServerDNSNames(values),
        ipAddresses: [serviceIP, '127.0.0.1'],
        ...key,
      },
      options: { signedByCA: SecretNames.CACluster },
    },
    {
      config: {
        kind: 'certificate',
        name: SecretNames.KubeAPIServerKubelet,
        commonName: 'system:kube-apiserver:kubelet',
        certType: 'client',
        ...key,
      },
      options: { signedByCA: SecretNames.CAKubelet },
    },
    {
      config: {
        kind: 'certificate',
        name: SecretNames.KubeAggregator,
        commonName: 'system:kube-aggregator',
        certType: 'client',
        ...key,
      },
      options: { signedByCA: SecretNames.CAFrontProxy },
    },
    {
      config: { kind: 'rsa', name: SecretNames.ServiceAccountKey, bits: 4096 },
      options: { persist: true, rotate: 'KeepOld' },
    },
    {
      config: { kind: 'etcdEncryptionKey', name: SecretNames.ETCDEncryptionKey, secretLength: 32 },
      options: { persist: true, rotate: 'KeepOld' },
    },
    { config: { kind: 'staticToken', name: SecretNames.StaticToken, tokens: [...StaticTokenUsers] } },
    ...(['main', 'events'] as const).map((role): SecretConfigWithOptions => ({
      config: {
        kind: 'certificate',
        name: role === 'main' ? SecretNames.ETCDServerMain : SecretNames.ETCDServerEvents,
        commonName: 'etcd-server',
        certType: 'both',
        dnsNames: etcdDNSNames(role, values.namespace),
        skipPublishingCACertificate: true,
        ...key,
      },
      options: { signedByCA: SecretNames.CAETCD },
    })),
    {
      config: {
        kind: 'certificate',
        name: SecretNames.ETCDClient,
        commonName: 'etcd-client',
        certType: 'client',
        skipPublishingCACertificate: true,
        ...key,
      },
      options: { signedByCA: SecretNames.CAETCD },
    },
    ...(
      [
        [SecretNames.KubeControllerManagerServer, 'kube-controller-manager'],
        [SecretNames.KubeSchedulerServer, 'kube-scheduler'],
      ] as const
    ).map(([name, service]): SecretConfigWithOptions => ({
      config: {
        kind: 'certificate',
        name,
        commonName: service,
        certType: 'server',
        dnsNames: [service, `${service}.${values.namespace}`, `${service}.${values.namespace}.svc`],
        ...key,
      },
      options: { signedByCA: SecretNames.CACluster },
    })),
  ];
}

/**
 * The names of the Secrets the secrets manager wrote, by config name (what `generateAllSecrets` returned), plus the
 * CA bundles (`<ca>-bundle-<hash>`) that carry `bundle.crt`. The renderers mount these.
 */
export interface ShootSecretNames {
  /** Secret name of each generated config, by config name. */
  readonly secrets: Readonly<Record<string, string>>;
  /** Secret name of the bundle of each CA (current + old during a rotation), by CA config name. */
  readonly bundles: Readonly<Record<string, string>>;
}

/** The Secret name for a config; throws naming the config when the secrets manager did not generate it. */
export function secretNameOf(names: ShootSecretNames, config: string, kind: 'secret' | 'bundle' = 'secret'): string {
  const name = kind === 'bundle' ? names.bundles[config] : names.secrets[config];
  if (!name) throw new Error(`${kind === 'bundle' ? 'CA bundle' : 'secret'} "${config}" has not been generated`);
  return name;
}

/**
 * The {@link ShootSecretNames} of a secrets manager run: `generated` is what `generateAllSecrets` returned, `bundleOf`
 * the manager's `get(name)` (the bundle when there is one, else the current secret).
 */
export function collectSecretNames(
  generated: Readonly<Record<string, { metadata?: { name?: string } }>>,
  bundleOf: (config: string) => { metadata?: { name?: string } } | undefined,
): ShootSecretNames {
  const secrets: Record<string, string> = {};
  const bundles: Record<string, string> = {};
  for (const [config, secret] of Object.entries(generated)) {
    if (secret.metadata?.name) secrets[config] = secret.metadata.name;
    const bundle = bundleOf(config)?.metadata?.name;
    if (bundle) bundles[config] = bundle;
  }
  return { secrets, bundles };
}
