// The shoot's gardener-resource-manager and Gardener's shoot access, rendered for Gardener's provider-local example
// Shoot: what the gardenlet deploys into the control plane namespace, and when it bootstraps the resource manager.
import fc from 'fast-check';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { resourceManagerConfigSpec } from '@gardener-ts/component-config';
import {
  GardenerAccessManagedResourceName,
  inClusterAPIServerURL,
  renderGardenerAccessSecrets,
  renderGardenerAccessShootResources,
} from './gardener-access.js';
import { apiAudiences, kubeAPIServerArgs } from './kube-apiserver.js';
import {
  GardenerResourceManagerName,
  mustBootstrapResourceManager,
  renderResourceManagerBootstrapKubeconfigSecret,
  renderResourceManagerConfigMap,
  renderResourceManagerDeployment,
  renderResourceManagerRBAC,
  renderResourceManagerShootAccessSecret,
  renderResourceManagerShootResources,
  resourceManagerConfig,
  resourceManagerNotBootstrapped,
} from './resource-manager.js';
import { GenericKubeconfigDir, kubeconfigToken, kubeconfigYAML, withKubeconfigToken } from './shoot-access.js';
import { exampleValues } from './testdata/fixtures.js';

const values = exampleValues();
const b64 = (s: string) => Buffer.from(s, 'base64').toString();
const decodeObjects = (secret: { data?: Record<string, string> }) =>
  Object.values(secret.data ?? {}).map((v) => JSON.parse(b64(v)));

describe("the shoot's gardener-resource-manager", () => {
  it('is configured for the control plane namespace as source and the shoot as target, and the app accepts it', () => {
    const config = resourceManagerConfig(values, { clusterIdentity: 'seed-identity' });
    const parsed = resourceManagerConfigSpec.schema.parse(config);
    expect(parsed.sourceClientConnection.namespaces).toEqual([values.namespace]);
    expect(parsed.targetClientConnection.kubeconfig).toBe(`${GenericKubeconfigDir}/kubeconfig`);
    expect(parsed.targetClientConnection.namespaces).toEqual([
      'kube-system',
      'kubernetes-dashboard',
      'kube-node-lease',
    ]);
    // ManagedResources without a class (the default `resources`), the token requestor for class `shoot`.
    expect(parsed.controllers.resourceClass).toBe('resources');
    expect(parsed.controllers.tokenRequestor).toMatchObject({ enabled: true, class: 'shoot' });
    expect(parsed.controllers.clusterID).toBe('seed-identity');
    expect(parsed.controllers.csrApprover).toMatchObject({ enabled: true, machineNamespace: values.namespace });
    expect(parsed.leaderElection).toMatchObject({ resourceNamespace: values.namespace });
    expect(Object.values(parsed.webhooks).some((w) => (w as { enabled?: boolean }).enabled)).toBe(false);
  });

  it('keeps its configuration in an immutable ConfigMap named by its content', () => {
    const a = renderResourceManagerConfigMap(values, resourceManagerConfig(values));
    const b = renderResourceManagerConfigMap(values, resourceManagerConfig(values, { clusterIdentity: 'other' }));
    expect(a.immutable).toBe(true);
    expect(a.metadata?.name).toMatch(/^gardener-resource-manager-[0-9a-f]{8}$/);
    expect(a.metadata?.name).not.toBe(b.metadata?.name);
    expect(parse(a.data!['config.yaml']!)).toEqual(resourceManagerConfig(values));
  });

  it('reads its source with a Role in the control plane namespace only', () => {
    const [sa, role, binding] = renderResourceManagerRBAC(values) as any[];
    expect(sa).toMatchObject({ kind: 'ServiceAccount', metadata: { namespace: values.namespace } });
    expect(role.kind).toBe('Role');
    expect(role.rules).toContainEqual(
      expect.objectContaining({ resources: ['managedresources', 'managedresources/status'] }),
    );
    expect(binding.subjects).toEqual([
      { kind: 'ServiceAccount', name: GardenerResourceManagerName, namespace: values.namespace },
    ]);
  });

  it('asks its own token requestor for a 24h token of kube-system/gardener-resource-manager', () => {
    expect(renderResourceManagerShootAccessSecret(values).metadata).toMatchObject({
      name: 'shoot-access-gardener-resource-manager',
      labels: { 'resources.gardener.cloud/purpose': 'token-requestor', 'resources.gardener.cloud/class': 'shoot' },
      annotations: {
        'serviceaccount.resources.gardener.cloud/name': 'gardener-resource-manager',
        'serviceaccount.resources.gardener.cloud/namespace': 'kube-system',
        'serviceaccount.resources.gardener.cloud/token-expiration-duration': '24h',
      },
    });
  });

  it('binds its shoot ServiceAccount to cluster-admin through a ManagedResource of no class', () => {
    const { secret, managedResource } = renderResourceManagerShootResources(values) as any;
    expect(managedResource.metadata.name).toBe('shoot-core-gardener-resource-manager');
    expect(managedResource.spec.class).toBeUndefined();
    expect(managedResource.spec.secretRefs).toEqual([{ name: secret.metadata.name }]);
    expect(decodeObjects(secret)).toEqual([
      expect.objectContaining({
        kind: 'ClusterRoleBinding',
        roleRef: expect.objectContaining({ name: 'cluster-admin' }),
        subjects: [{ kind: 'ServiceAccount', name: 'gardener-resource-manager', namespace: 'kube-system' }],
      }),
    ]);
  });

  it('mounts the bootstrap kubeconfig while bootstrapping, the generic kubeconfig and its token afterwards', () => {
    const base = { configMap: 'gardener-resource-manager-abc', clusterCASecret: 'ca-bundle-1' };
    const bootstrap = renderResourceManagerDeployment(values, {
      ...base,
      access: { bootstrapKubeconfigSecret: 'boot' },
    });
    const running = renderResourceManagerDeployment(values, {
      ...base,
      access: { genericKubeconfigSecret: 'generic' },
    });
    const mountAt = (d: typeof bootstrap) =>
      d.spec!.template.spec!.containers[0]!.volumeMounts!.find((m) => m.mountPath === GenericKubeconfigDir)!.name;
    const volume = (d: typeof bootstrap, name: string) => d.spec!.template.spec!.volumes!.find((v) => v.name === name)!;
    expect(volume(bootstrap, mountAt(bootstrap)).secret?.secretName).toBe('boot');
    expect(volume(running, mountAt(running)).projected?.sources?.map((s) => s.secret?.name)).toEqual([
      'generic',
      'shoot-access-gardener-resource-manager',
    ]);
    const container = running.spec!.template.spec!.containers[0]!;
    expect(container.image).toBe('gardener-ts/resource-manager:0.1.0');
    expect(container.args).toEqual(['--config=/etc/gardener-resource-manager-config/config.yaml']);
    expect(running.spec!.template.spec!.serviceAccountName).toBe(GardenerResourceManagerName);
  });

  it('bootstraps with a client certificate against the in-cluster API server address', () => {
    const secret = renderResourceManagerBootstrapKubeconfigSecret(values, {
      caPEM: 'CA',
      certPEM: 'CERT',
      keyPEM: 'KEY',
    });
    const kubeconfig = parse(b64(secret.data!.kubeconfig!));
    expect(kubeconfig.clusters[0].cluster.server).toBe('https://kube-apiserver');
    expect(b64(kubeconfig.clusters[0].cluster['certificate-authority-data'])).toBe('CA');
    expect(b64(kubeconfig.users[0].user['client-certificate-data'])).toBe('CERT');
    expect(secret.metadata?.name).toMatch(/^shoot-access-gardener-resource-manager-bootstrap-[0-9a-f]{8}$/);
  });
});

describe('when the resource manager is bootstrapped (Gardener rules)', () => {
  const now = new Date('2026-11-25T04:00:00Z');
  const secret = (renew?: string) => ({
    metadata: renew ? { annotations: { 'serviceaccount.resources.gardener.cloud/token-renew-timestamp': renew } } : {},
  });
  const healthy = { status: { conditions: [{ type: 'ResourcesApplied', status: 'True' }] } };

  it('bootstraps without a secret, without a token, with an overdue token, or without its ManagedResource', () => {
    expect(mustBootstrapResourceManager({ replicas: 1, now })).toMatch(/does not exist/);
    expect(mustBootstrapResourceManager({ replicas: 1, now, shootAccessSecret: secret() })).toMatch(/no token/);
    expect(
      mustBootstrapResourceManager({ replicas: 1, now, shootAccessSecret: secret('2026-11-25T03:00:00Z') }),
    ).toMatch(/not renewed/);
    expect(
      mustBootstrapResourceManager({ replicas: 1, now, shootAccessSecret: secret('2026-11-25T20:00:00Z') }),
    ).toMatch(/ManagedResource/);
  });

  it('does not bootstrap a valid token with its ManagedResource, nor a resource manager scaled to zero', () => {
    const valid = secret('2026-11-25T20:00:00Z');
    expect(
      mustBootstrapResourceManager({ replicas: 1, now, shootAccessSecret: valid, managedResource: healthy }),
    ).toBeUndefined();
    expect(mustBootstrapResourceManager({ replicas: 0, now })).toBeUndefined();
  });

  it('bootstraps again when the shoot refuses its ServiceAccount', () => {
    for (const message of [
      'secrets is forbidden: User "system:serviceaccount:kube-system:gardener-resource-manager" cannot list',
      'error during apply: Unauthorized',
    ]) {
      const managedResource = { status: { conditions: [{ type: 'ResourcesApplied', status: 'False', message }] } };
      expect(
        mustBootstrapResourceManager({
          replicas: 1,
          now,
          shootAccessSecret: secret('2026-11-25T20:00:00Z'),
          managedResource,
        }),
      ).toMatch(/lost access/);
    }
  });

  it('is bootstrapped once the token is issued and not due', () => {
    expect(resourceManagerNotBootstrapped(undefined, now)).toMatch(/does not exist/);
    expect(resourceManagerNotBootstrapped(secret(), now)).toMatch(/not generated/);
    expect(resourceManagerNotBootstrapped(secret('2026-11-25T03:59:59Z'), now)).toMatch(/not renewed/);
    expect(resourceManagerNotBootstrapped(secret('2026-11-25T04:00:01Z'), now)).toBeUndefined();
  });
});

describe("Gardener's shoot access", () => {
  it('renders gardener (advertised address) and gardener-internal (Service) kubeconfigs the token requestor fills', () => {
    const [gardener, internal] = renderGardenerAccessSecrets(values, 'CA', { outOfCluster: 'https://127.0.0.1:30443' });
    for (const [secret, name, server] of [
      [gardener!, 'gardener', 'https://127.0.0.1:30443'],
      [internal!, 'gardener-internal', inClusterAPIServerURL(values)],
    ] as const) {
      expect(secret.metadata).toMatchObject({
        name,
        labels: { 'resources.gardener.cloud/purpose': 'token-requestor', 'resources.gardener.cloud/class': 'shoot' },
        annotations: { 'serviceaccount.resources.gardener.cloud/name': name },
      });
      const kubeconfig = parse(b64(secret.data!.kubeconfig!));
      expect(kubeconfig.clusters[0].cluster.server).toBe(server);
      expect(kubeconfigToken(b64(secret.data!.kubeconfig!))).toBeUndefined();
    }
    expect(inClusterAPIServerURL(values)).toBe('https://kube-apiserver.shoot--local--local.svc');
  });

  it('keeps a token the token requestor filled when it renders the kubeconfig again', () => {
    const [first] = renderGardenerAccessSecrets(values, 'CA', { outOfCluster: 'https://a' });
    const filled = withKubeconfigToken(b64(first!.data!.kubeconfig!), 'issued-token');
    const live = { ...first!, data: { kubeconfig: Buffer.from(filled).toString('base64') } };
    const [again] = renderGardenerAccessSecrets(
      values,
      'NEW-CA',
      { outOfCluster: 'https://b' },
      new Map([['gardener', live]]),
    );
    const kubeconfig = b64(again!.data!.kubeconfig!);
    expect(kubeconfigToken(kubeconfig)).toBe('issued-token');
    expect(parse(kubeconfig).clusters[0].cluster.server).toBe('https://b');
  });

  it('binds both ServiceAccounts to cluster-admin', () => {
    const { secret, managedResource } = renderGardenerAccessShootResources(values) as any;
    expect(managedResource.metadata.name).toBe(GardenerAccessManagedResourceName);
    expect(decodeObjects(secret)[0].subjects.map((s: { name: string }) => s.name)).toEqual([
      'gardener',
      'gardener-internal',
    ]);
  });

  it('puts a token into the current user of any kubeconfig and reads it back (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((s) => s.trim() === s && s.length > 0),
        fc.stringMatching(/^[A-Za-z0-9._-]{1,64}$/),
        (name, token) => {
          const kubeconfig = kubeconfigYAML(name, { server: 'https://x', caPEM: 'CA' }, { token: '' });
          expect(kubeconfigToken(kubeconfig)).toBeUndefined();
          expect(kubeconfigToken(withKubeconfigToken(kubeconfig, token))).toBe(token);
          expect(withKubeconfigToken(kubeconfig, undefined)).toBe(kubeconfig);
        },
      ),
    );
  });
});

describe("the shoot's kube-apiserver audiences", () => {
  it('accepts the gardener audience of shoot access tokens besides the default or configured ones', () => {
    expect(apiAudiences(values)).toEqual(['kubernetes', 'gardener']);
    expect(kubeAPIServerArgs(values)).toContain('--api-audiences=kubernetes,gardener');
    const custom = structuredClone(values) as any;
    custom.shoot.spec.kubernetes.kubeAPIServer = { apiAudiences: ['foo'] };
    expect(apiAudiences(custom)).toEqual(['foo', 'gardener']);
    custom.shoot.spec.kubernetes.kubeAPIServer = { apiAudiences: ['gardener', 'bar'] };
    expect(apiAudiences(custom)).toEqual(['gardener', 'bar']);
  });
});
