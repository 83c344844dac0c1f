// The shoot component renderers on Gardener's provider-local example Shoot: the objects a user's shoot becomes in
// the seed, with the secrets manager (in memory) generating the Secrets they mount.
import { SecretsManager, generateAllSecrets } from '@gardener-ts/secrets-manager';
import { FakeSecretsClient } from '@gardener-ts/secrets-manager/testing';
import fc from 'fast-check';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderCluster } from './cluster.js';
import { etcdClientURL, renderEtcd } from './etcd.js';
import {
  admissionPlugins,
  DefaultAdmissionPlugins,
  encryptionConfiguration,
  kubeAPIServerArgs,
  renderAdmissionConfigSecret,
  renderAuditPolicyConfigMap,
  renderEncryptionConfigurationSecret,
  renderKubeAPIServerDeployment,
  renderKubeAPIServerService,
} from './kube-apiserver.js';
import { kubeControllerManagerArgs, renderKubeControllerManagerDeployment } from './kube-controller-manager.js';
import { renderKubeSchedulerConfigMap, renderKubeSchedulerDeployment } from './kube-scheduler.js';
import { renderControlPlaneNamespace, requiredExtensionTypes } from './namespace.js';
import { collectSecretNames, SecretNames, shootSecretConfigs, type ShootSecretNames } from './secrets.js';
import { renderGenericTokenKubeconfigSecret, renderShootAccessSecret } from './shoot-access.js';
import { exampleValues } from './testdata/fixtures.js';
import { controlPlaneNamespaceOf, kubernetesServiceIP, projectNameOfNamespace } from './values.js';

const now = '2026-11-25T01:00:00Z';

describe('shoot namespace', () => {
  it('is shoot--<project>--<name> of the project namespace', () => {
    const values = exampleValues();
    expect(values.namespace).toBe('shoot--local--local');
    expect(projectNameOfNamespace('garden')).toBe('garden');
    expect(controlPlaneNamespaceOf({ ...values.shoot, status: { technicalID: 'shoot--x--y' } as never })).toBe(
      'shoot--x--y',
    );
  });

  it("carries Gardener's labels and annotations", () => {
    const values = exampleValues((s) => {
      s.spec.extensions = [{ type: 'shoot-dns-service' }, { type: 'shoot-cert-service', disabled: true }];
      s.status = { uid: 'abc' } as never;
    });
    const ns = renderControlPlaneNamespace(values, { autoEnabledExtensionTypes: ['shoot-cert-service', 'local-ext'] });
    expect(ns.metadata?.name).toBe('shoot--local--local');
    expect(ns.metadata?.labels).toEqual({
      'gardener.cloud/role': 'shoot',
      'seed.gardener.cloud/provider': 'local',
      'shoot.gardener.cloud/provider': 'local',
      'networking.shoot.gardener.cloud/provider': 'calico',
      'backup.gardener.cloud/provider': 'local',
      'pod-security.kubernetes.io/enforce': 'privileged',
      'high-availability-config.resources.gardener.cloud/consider': 'true',
      'extensions.gardener.cloud/shoot-dns-service': 'true',
      'extensions.gardener.cloud/local-ext': 'true',
    });
    expect(ns.metadata?.annotations).toEqual({
      'shoot.gardener.cloud/uid': 'abc',
      'high-availability-config.resources.gardener.cloud/failure-tolerance-type': '',
      'high-availability-config.resources.gardener.cloud/zones': '0',
    });
  });

  it('requires exactly the enabled extension types (property)', () => {
    const type = fc.constantFrom('a', 'b', 'c', 'd');
    fc.assert(
      fc.property(fc.array(type), fc.array(fc.record({ type, disabled: fc.boolean() })), (auto, extensions) => {
        const values = exampleValues((s) => (s.spec.extensions = extensions));
        const types = requiredExtensionTypes(values.shoot, auto);
        for (const t of ['a', 'b', 'c', 'd']) {
          const last = extensions.filter((e) => e.type === t).at(-1);
          const expected = last ? !last.disabled : (auto as string[]).includes(t);
          expect(types.includes(t)).toBe(expected);
        }
      }),
    );
  });
});

describe('Cluster', () => {
  it('mirrors the shoot, seed and cloud profile with their kinds', () => {
    const values = exampleValues();
    const cluster = renderCluster(values);
    expect(cluster.metadata?.name).toBe('shoot--local--local');
    expect(cluster.spec.shoot).toMatchObject({ kind: 'Shoot', metadata: { name: 'local', namespace: 'garden-local' } });
    expect(cluster.spec.seed).toMatchObject({ kind: 'Seed', metadata: { name: 'local' } });
    expect(cluster.spec.cloudProfile).toMatchObject({ kind: 'CloudProfile', spec: { type: 'local' } });
  });
});

describe('secrets and the control plane that mounts them', () => {
  const values = exampleValues();
  let names: ShootSecretNames;
  let manager: SecretsManager;

  beforeAll(async () => {
    manager = await SecretsManager.create(new FakeSecretsClient(), {
      namespace: values.namespace,
      identity: 'gardenlet',
    });
    const generated = await generateAllSecrets(manager, shootSecretConfigs(values, { key: { algorithm: 'ECDSA' } }));
    names = collectSecretNames(generated, (name) => manager.get(name));
  });

  it('generates every secret of the control plane, certificates signed by an earlier CA', () => {
    const configs = shootSecretConfigs(values);
    const seen = new Set<string>();
    for (const { config, options } of configs) {
      expect(seen.has(config.name)).toBe(false);
      if (options?.signedByCA) expect(seen.has(options.signedByCA)).toBe(true);
      seen.add(config.name);
    }
    for (const name of Object.values(SecretNames))
      expect(names.secrets[name]).toMatch(new RegExp(`^${name}-[0-9a-f]{8}`));
    expect(names.bundles[SecretNames.CACluster]).toMatch(/^ca-bundle-/);
  });

  it('puts the service IP and the internal API domain into the kube-apiserver certificate', () => {
    const server = shootSecretConfigs(values).find((c) => c.config.name === 'kube-apiserver')!.config;
    expect(kubernetesServiceIP('10.4.0.0/16')).toBe('10.4.0.1');
    expect(server).toMatchObject({
      certType: 'server',
      ipAddresses: ['10.4.0.1', '127.0.0.1'],
      dnsNames: expect.arrayContaining(['kubernetes.default.svc', 'api.local.local.internal.local.gardener.cloud']),
    });
  });

  it('renders etcd main and events with the TLS secrets of the run', () => {
    const main = renderEtcd(values, 'main', names, { now });
    const events = renderEtcd(values, 'events', names, { now });
    expect(main.metadata?.name).toBe('etcd-main');
    expect(main.metadata?.annotations).toEqual({
      'gardener.cloud/operation': 'reconcile',
      'gardener.cloud/timestamp': now,
    });
    expect(main.spec).toMatchObject({
      replicas: 1,
      volumeClaimTemplate: 'main-etcd',
      selector: { matchLabels: { app: 'etcd-statefulset', role: 'main', 'gardener.cloud/role': 'controlplane' } },
      etcd: {
        metrics: 'extensive',
        clientPort: 2379,
        clientUrlTls: {
          tlsCASecretRef: { name: names.bundles['ca-etcd'], dataKey: 'bundle.crt' },
          serverTLSSecretRef: { name: names.secrets['etcd-server-main'] },
          clientTLSSecretRef: { name: names.secrets['etcd-client'] },
        },
      },
    });
    expect(events.spec).toMatchObject({ volumeClaimTemplate: 'etcd-events', etcd: { metrics: 'basic' } });
    expect(
      (events.spec.etcd as { clientUrlTls: { serverTLSSecretRef: { name: string } } }).clientUrlTls.serverTLSSecretRef
        .name,
    ).toBe(names.secrets['etcd-server-events']);
    const hibernated = exampleValues((s) => (s.spec.hibernation = { enabled: true }));
    expect(renderEtcd(hibernated, 'main', names, { now }).spec.replicas).toBe(0);
    expect(() => renderEtcd(values, 'main', { secrets: {}, bundles: {} }, { now })).toThrow(
      '"ca-etcd" has not been generated',
    );
  });

  it("renders kube-apiserver with Gardener's flags, mounting the generated secrets", () => {
    const encryption = renderEncryptionConfigurationSecret(values, [{ key: 'key1', secret: 'c2VjcmV0' }]);
    const admission = renderAdmissionConfigSecret(values);
    const audit = renderAuditPolicyConfigMap(values);
    const deployment = renderKubeAPIServerDeployment(values, names, {
      encryptionConfigSecret: encryption.metadata!.name!,
      admissionConfigSecret: admission.metadata!.name!,
      auditPolicyConfigMap: audit.metadata!.name!,
    });
    const container = deployment.spec!.template.spec!.containers[0];
    expect(container.image).toBe('registry.k8s.io/kube-apiserver:v1.33.0');
    expect(container.args).toEqual(
      expect.arrayContaining([
        `--enable-admission-plugins=${DefaultAdmissionPlugins.join(',')}`,
        '--etcd-servers=https://etcd-main-client:2379',
        '--etcd-servers-overrides=/events#https://etcd-events-client:2379',
        '--service-cluster-ip-range=10.4.0.0/16',
        '--service-account-issuer=https://api.local.local.internal.local.gardener.cloud',
        '--authorization-mode=Node,RBAC',
        '--token-auth-file=/srv/kubernetes/token/static_tokens.csv',
      ]),
    );
    const volumes = Object.fromEntries(deployment.spec!.template.spec!.volumes!.map((v) => [v.name, v]));
    expect(volumes['server'].secret?.secretName).toBe(names.secrets['kube-apiserver']);
    expect(volumes['ca'].secret?.secretName).toBe(names.bundles['ca']);
    expect(volumes['service-account-key-bundle'].secret?.secretName).toBe(names.bundles['service-account-key']);
    expect(volumes['etcd-encryption-secret'].secret?.secretName).toBe(encryption.metadata!.name);
    for (const mount of container.volumeMounts!) expect(volumes[mount.name]).toBeDefined();
    expect(deployment.spec!.replicas).toBe(1);
    // The internal domain's issuer issues; the in-cluster one (a seed without internal domain) stays accepted.
    expect(container.args!.filter((a) => a.startsWith('--service-account-issuer='))).toEqual([
      '--service-account-issuer=https://api.local.local.internal.local.gardener.cloud',
      '--service-account-issuer=https://kube-apiserver.shoot--local--local.svc',
    ]);

    const service = renderKubeAPIServerService(values);
    expect(service.spec).toMatchObject({ type: 'LoadBalancer', ports: [{ port: 443 }] });
    expect(service.spec!.selector).toEqual(
      deployment.spec!.template.metadata!.labels && { app: 'kubernetes', role: 'apiserver' },
    );
    expect(etcdClientURL('events')).toBe('https://etcd-events-client:2379');
  });

  it('renders kube-controller-manager and kube-scheduler with shoot access', () => {
    const generic = renderGenericTokenKubeconfigSecret(values, '-----BEGIN CERTIFICATE-----\n');
    const kubeconfig = parse(generic.stringData!.kubeconfig) as { clusters: { cluster: { server: string } }[] };
    expect(kubeconfig.clusters[0].cluster.server).toBe('https://kube-apiserver');
    expect(renderShootAccessSecret(values, 'kube-controller-manager').metadata).toMatchObject({
      name: 'shoot-access-kube-controller-manager',
      labels: { 'resources.gardener.cloud/purpose': 'token-requestor', 'resources.gardener.cloud/class': 'shoot' },
      annotations: { 'serviceaccount.resources.gardener.cloud/name': 'kube-controller-manager' },
    });
    const kcm = renderKubeControllerManagerDeployment(values, names, generic.metadata!.name!);
    const kcmContainer = kcm.spec!.template.spec!.containers[0];
    expect(kcmContainer.image).toBe('registry.k8s.io/kube-controller-manager:v1.33.0');
    expect(kcmContainer.args).toEqual(
      expect.arrayContaining([
        '--cluster-cidr=10.3.0.0/16',
        '--cluster-name=shoot--local--local',
        '--allocate-node-cidrs=true',
      ]),
    );
    const projected = kcm.spec!.template.spec!.volumes!.find((v) => v.name === 'kubeconfig')!.projected!.sources!;
    expect(projected.map((s) => s.secret?.name)).toEqual([
      generic.metadata!.name,
      'shoot-access-kube-controller-manager',
    ]);

    const workerless = exampleValues((s) => (s.spec.provider.workers = []));
    expect(kubeControllerManagerArgs(workerless)).not.toContain('--allocate-node-cidrs=true');

    const config = renderKubeSchedulerConfigMap(
      exampleValues((s) => (s.spec.kubernetes.kubeScheduler = { profile: 'bin-packing' })),
    );
    expect(config.data!['config.yaml']).toContain('MostAllocated');
    const scheduler = renderKubeSchedulerDeployment(values, names, generic.metadata!.name!, config.metadata!.name!);
    expect(scheduler.spec!.template.spec!.containers[0].image).toBe('registry.k8s.io/kube-scheduler:v1.33.0');
    const hibernated = exampleValues((s) => (s.spec.hibernation = { enabled: true }));
    expect(renderKubeSchedulerDeployment(hibernated, names, 'g', 'c').spec!.replicas).toBe(0);
  });
});

describe('admission plugins', () => {
  it('merge the shoot spec into the defaults (property)', () => {
    const name = fc.constantFrom('PodSecurity', 'ResourceQuota', 'AlwaysPullImages', 'EventRateLimit', 'Priority');
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ name, disabled: fc.boolean() }), { selector: (p) => p.name }),
        (plugins) => {
          const values = exampleValues((s) => (s.spec.kubernetes.kubeAPIServer = { admissionPlugins: plugins }));
          const { enabled, disabled } = admissionPlugins(values.shoot);
          for (const p of plugins) {
            expect(enabled.includes(p.name)).toBe(!p.disabled);
            expect(disabled.includes(p.name)).toBe(p.disabled);
          }
          const untouchedDefaults = DefaultAdmissionPlugins.filter((d) => !plugins.some((p) => p.name === d));
          expect(enabled.filter((e) => untouchedDefaults.includes(e as never))).toEqual(untouchedDefaults);
          const args = kubeAPIServerArgs(values);
          expect(args.some((a) => a.startsWith('--disable-admission-plugins='))).toBe(disabled.length > 0);
        },
      ),
    );
  });

  it('writes configured plugins into the admission configuration', () => {
    const values = exampleValues(
      (s) =>
        (s.spec.kubernetes.kubeAPIServer = {
          admissionPlugins: [
            {
              name: 'EventRateLimit',
              config: { apiVersion: 'eventratelimit.admission.k8s.io/v1alpha1', kind: 'Configuration' },
            },
          ],
        }),
    );
    const config = parse(renderAdmissionConfigSecret(values).stringData!['admission-configuration.yaml']);
    expect(config.plugins).toEqual([
      {
        name: 'EventRateLimit',
        configuration: { apiVersion: 'eventratelimit.admission.k8s.io/v1alpha1', kind: 'Configuration' },
      },
    ]);
  });
});

describe('encryption configuration', () => {
  it('encrypts secrets and the configured resources with the current key first', () => {
    const values = exampleValues(
      (s) => (s.spec.kubernetes.kubeAPIServer = { encryptionConfig: { resources: ['configmaps'] } }),
    );
    const config = parse(
      encryptionConfiguration(values.shoot, [
        { key: 'new', secret: 'bmV3' },
        { key: 'old', secret: 'b2xk' },
      ]),
    );
    expect(config.resources[0].resources).toEqual(['secrets', 'configmaps']);
    expect(config.resources[0].providers).toEqual([
      {
        aescbc: {
          keys: [
            { name: 'new', secret: 'bmV3' },
            { name: 'old', secret: 'b2xk' },
          ],
        },
      },
      { identity: {} },
    ]);
    const a = renderEncryptionConfigurationSecret(values, [{ key: 'a', secret: 'YQ==' }]).metadata!.name;
    const b = renderEncryptionConfigurationSecret(values, [{ key: 'b', secret: 'Yg==' }]).metadata!.name;
    expect(a).not.toBe(b);
  });
});
