// Renders every component chart with the real helm (v4, tools/k8s-binaries) and checks the manifests: the
// resources exist, the Deployment is locked down and probes the port its config serves, and the config the
// chart ships is accepted by the component's own configuration spec.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import {
  admissionControllerConfigSpec,
  controllerManagerConfigSpec,
  gardenletConfigSpec,
  nodeAgentConfigSpec,
  operatorConfigSpec,
  parseComponentConfig,
  providerLocalConfigSpec,
  resourceManagerConfigSpec,
  schedulerConfigSpec,
  type ComponentConfigSpec,
} from '@gardener-ts/component-config';
import { workspaceRoot } from '@gardener-ts/testing';

const run = promisify(execFile);
const root = workspaceRoot();
const helmBinary = join(root, 'tools', 'k8s-binaries', 'vendor', 'helm');
// helm keeps caches and settings under $HOME; keep them out of the user's home.
const helmHome = mkdtempSync(join(tmpdir(), 'gardener-ts-helm-'));

interface ChartCase {
  app: string;
  spec: ComponentConfigSpec<unknown>;
  apiVersion: string;
  kind: string;
  healthPort: number;
  metricsPort: number;
  webhookPort?: number;
}

const cases: ChartCase[] = [
  {
    app: 'operator',
    spec: operatorConfigSpec as ComponentConfigSpec<unknown>,
    apiVersion: 'operator.config.gardener.cloud/v1alpha1',
    kind: 'OperatorConfiguration',
    healthPort: 2751,
    metricsPort: 2752,
  },
  {
    app: 'controller-manager',
    spec: controllerManagerConfigSpec as ComponentConfigSpec<unknown>,
    apiVersion: 'controllermanager.config.gardener.cloud/v1alpha1',
    kind: 'ControllerManagerConfiguration',
    healthPort: 2718,
    metricsPort: 2719,
  },
  {
    app: 'admission',
    spec: admissionControllerConfigSpec as ComponentConfigSpec<unknown>,
    apiVersion: 'admissioncontroller.config.gardener.cloud/v1alpha1',
    kind: 'AdmissionControllerConfiguration',
    healthPort: 2722,
    metricsPort: 2723,
    webhookPort: 2721,
  },
  {
    app: 'scheduler',
    spec: schedulerConfigSpec as ComponentConfigSpec<unknown>,
    apiVersion: 'scheduler.config.gardener.cloud/v1alpha1',
    kind: 'SchedulerConfiguration',
    healthPort: 10251,
    metricsPort: 19251,
  },
  {
    app: 'gardenlet',
    spec: gardenletConfigSpec as ComponentConfigSpec<unknown>,
    apiVersion: 'gardenlet.config.gardener.cloud/v1alpha1',
    kind: 'GardenletConfiguration',
    healthPort: 2728,
    metricsPort: 2729,
  },
  {
    app: 'resource-manager',
    spec: resourceManagerConfigSpec as ComponentConfigSpec<unknown>,
    apiVersion: 'resourcemanager.config.gardener.cloud/v1alpha1',
    kind: 'ResourceManagerConfiguration',
    healthPort: 8081,
    metricsPort: 8080,
    webhookPort: 9449,
  },
  {
    app: 'node-agent',
    spec: nodeAgentConfigSpec as ComponentConfigSpec<unknown>,
    apiVersion: 'nodeagent.config.gardener.cloud/v1alpha1',
    kind: 'NodeAgentConfiguration',
    healthPort: 2751,
    metricsPort: 2752,
  },
  {
    app: 'provider-local',
    spec: providerLocalConfigSpec as ComponentConfigSpec<unknown>,
    apiVersion: 'local.provider.extensions.config.gardener.cloud/v1alpha1',
    kind: 'ControllerConfiguration',
    healthPort: 8081,
    metricsPort: 8080,
    webhookPort: 9443,
  },
];

type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
} & Record<string, any>;

async function helm(args: string[]): Promise<string> {
  try {
    const { stdout } = await run(helmBinary, args, {
      cwd: root,
      maxBuffer: 16 * 1024 * 1024,
      env: {
        ...process.env,
        HELM_CACHE_HOME: join(helmHome, 'cache'),
        HELM_CONFIG_HOME: join(helmHome, 'config'),
        HELM_DATA_HOME: join(helmHome, 'data'),
      },
    });
    return stdout;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`helm ${args.join(' ')} failed: ${e.stderr || e.message}`);
  }
}

/** `helm template t deploy/charts/<app>` (after vendoring the file:// library chart), parsed. */
async function render(app: string, extraArgs: string[] = []): Promise<Manifest[]> {
  const text = await helm(['template', 't', join('deploy', 'charts', app), ...extraArgs]);
  return parseAllDocuments(text)
    .filter((d) => d.contents !== null)
    .map((d) => {
      if (d.errors.length > 0) throw new Error(`helm rendered malformed YAML for ${app}: ${d.errors[0].message}`);
      return d.toJS() as Manifest;
    });
}

function only(manifests: Manifest[], kind: string): Manifest {
  const found = manifests.filter((m) => m.kind === kind);
  expect(found, `exactly one ${kind}`).toHaveLength(1);
  return found[0];
}

const rendered = new Map<string, Manifest[]>();

beforeAll(async () => {
  if (!existsSync(helmBinary))
    await run(process.execPath, [join(root, 'tools', 'k8s-binaries', 'unpack.mjs')], { cwd: root });
  // Dependency builds are offline (file:// dependency) and write only into each chart's own charts/ directory.
  await Promise.all(cases.map((c) => helm(['dependency', 'build', join('deploy', 'charts', c.app)])));
  await Promise.all(cases.map(async (c) => rendered.set(c.app, await render(c.app))));
}, 120_000);

afterAll(() => rmSync(helmHome, { recursive: true, force: true }));

describe.each(cases)('chart $app', (c) => {
  const manifests = () => rendered.get(c.app)!;

  it('renders a ServiceAccount, ClusterRole, ClusterRoleBinding, ConfigMap, Service and Deployment, all labelled', () => {
    // Webhook configurations are a chart's own business (admission: admission-chart.test.ts).
    const kinds = manifests()
      .map((m) => m.kind)
      .filter((k) => !k.endsWith('WebhookConfiguration'))
      .sort();
    expect(kinds).toEqual([
      'ClusterRole',
      'ClusterRoleBinding',
      'ConfigMap',
      'Deployment',
      'Service',
      'ServiceAccount',
    ]);
    for (const m of manifests()) {
      expect(m.metadata.labels, `${m.kind} labels`).toMatchObject({
        'app.kubernetes.io/name': c.app,
        'app.kubernetes.io/instance': 't',
        'app.kubernetes.io/part-of': 'gardener-ts',
      });
    }
  });

  it('binds the ClusterRole to the ServiceAccount the Deployment runs as', () => {
    const sa = only(manifests(), 'ServiceAccount');
    const role = only(manifests(), 'ClusterRole');
    const binding = only(manifests(), 'ClusterRoleBinding');
    expect(role.rules.length).toBeGreaterThan(0);
    expect(binding.roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: role.metadata.name,
    });
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: sa.metadata.name, namespace: 'default' }]);
    expect(only(manifests(), 'Deployment').spec.template.spec.serviceAccountName).toBe(sa.metadata.name);
  });

  it('ships a config.yaml that the component accepts', () => {
    const text = only(manifests(), 'ConfigMap').data['config.yaml'] as string;
    const raw = parse(text) as Record<string, any>;
    expect(raw.apiVersion).toBe(c.apiVersion);
    expect(raw.kind).toBe(c.kind);
    expect(c.spec, `${c.app}'s config spec is exported by @gardener-ts/component-config`).toBeDefined();
    const { config, ignoredFields } = parseComponentConfig(c.spec, text, `deploy/charts/${c.app} config.yaml`);
    expect(ignoredFields, 'fields the component would ignore').toEqual([]);
    const runtime = c.spec.runtime(config);
    expect(runtime.healthProbes).toEqual({ bindAddress: '0.0.0.0', port: c.healthPort });
    expect(runtime.metrics).toEqual({ bindAddress: '0.0.0.0', port: c.metricsPort });
  });

  it('runs the image non-root and read-only with the mounted config', () => {
    const configMap = only(manifests(), 'ConfigMap');
    const deployment = only(manifests(), 'Deployment');
    const pod = deployment.spec.template.spec;
    expect(pod.containers).toHaveLength(1);
    const container = pod.containers[0];

    expect(container.image).toBe(`gardener-ts/${c.app}:0.1.0`);
    expect(container.args).toEqual(['--config', '/etc/gardener-ts/config.yaml']);
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
    expect(container.securityContext).toMatchObject({
      runAsNonRoot: true,
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
    });
    expect(container.resources?.requests).toBeDefined();

    const configVolume = pod.volumes.find((v: any) => v.configMap?.name === configMap.metadata.name);
    expect(configVolume, 'a volume from the ConfigMap').toBeDefined();
    expect(container.volumeMounts).toContainEqual(
      expect.objectContaining({ name: configVolume.name, mountPath: '/etc/gardener-ts' }),
    );
    expect(deployment.spec.template.metadata.annotations['checksum/config']).toMatch(/^[0-9a-f]{64}$/);
    expect(deployment.spec.selector.matchLabels).toEqual({
      'app.kubernetes.io/name': c.app,
      'app.kubernetes.io/instance': 't',
    });
  });

  it('probes /healthz and /readyz on the config’s healthProbes port', () => {
    const raw = parse(only(manifests(), 'ConfigMap').data['config.yaml']) as Record<string, any>;
    expect(raw.server.healthProbes.port).toBe(c.healthPort);
    const container = only(manifests(), 'Deployment').spec.template.spec.containers[0];
    expect(container.livenessProbe.httpGet).toMatchObject({ path: '/healthz', port: c.healthPort });
    expect(container.readinessProbe.httpGet).toMatchObject({ path: '/readyz', port: c.healthPort });
    // Probed from the container's start: the landscape and every rollout wait for this readiness.
    expect(container.readinessProbe).toMatchObject({ periodSeconds: 2 });
    expect(container.readinessProbe.initialDelaySeconds ?? 0).toBe(0);
    expect(container.ports).toContainEqual(expect.objectContaining({ name: 'health', containerPort: c.healthPort }));
    expect(container.ports).toContainEqual(expect.objectContaining({ name: 'metrics', containerPort: c.metricsPort }));
  });

  it('exposes probes, metrics and (only where served) webhooks through the Service', () => {
    const service = only(manifests(), 'Service');
    const deployment = only(manifests(), 'Deployment');
    expect(deployment.spec.template.metadata.labels).toMatchObject(service.spec.selector);
    const ports = service.spec.ports.map((p: any) => [p.name, p.port, p.targetPort]);
    const expected: unknown[] = [
      ['health', c.healthPort, 'health'],
      ['metrics', c.metricsPort, 'metrics'],
    ];
    if (c.webhookPort !== undefined) {
      expected.push(['webhooks', 443, 'webhooks']);
      const container = deployment.spec.template.spec.containers[0];
      expect(container.ports).toContainEqual(
        expect.objectContaining({ name: 'webhooks', containerPort: c.webhookPort }),
      );
    }
    expect(ports).toEqual(expected);
  });
});

describe('chart values', () => {
  it('gives the scheduler exactly the Gardener permissions it needs', () => {
    const role = only(rendered.get('scheduler')!, 'ClusterRole');
    const grants = (resource: string) =>
      role.rules.filter((r: any) => r.resources.includes(resource)).flatMap((r: any) => r.verbs as string[]);
    expect(grants('shoots')).toEqual(expect.arrayContaining(['get', 'list', 'watch', 'update']));
    expect(grants('shoots/binding')).toContain('update');
    expect(grants('shoots/status')).toContain('patch');
    expect(grants('configmaps')).toEqual(expect.arrayContaining(['list', 'watch']));
    expect(grants('seeds')).toEqual(expect.arrayContaining(['get', 'list', 'watch']));
    expect(grants('leases')).toEqual(expect.arrayContaining(['get', 'create', 'update']));
    expect(grants('events')).toContain('create');
    expect(role.rules.flatMap((r: any) => r.verbs)).not.toContain('*');
  });

  it('rolls the pods when the config changes and honours image overrides', async () => {
    const before = only(rendered.get('scheduler')!, 'Deployment');
    const after = only(
      await render('scheduler', [
        '--set',
        'config.logLevel=debug',
        '--set',
        'image.repository=registry.example/sched',
        '--set',
        'image.tag=v1',
      ]),
      'Deployment',
    );
    expect(after.spec.template.metadata.annotations['checksum/config']).not.toBe(
      before.spec.template.metadata.annotations['checksum/config'],
    );
    expect(after.spec.template.spec.containers[0].image).toBe('registry.example/sched:v1');
  });

  it('mounts the NATS credentials Secret where config.nats points, and the scheduler accepts that config', async () => {
    const manifests = await render('scheduler', [
      '--set',
      'natsCredentials.secretName=scheduler-nats',
      '--set',
      'config.nats.servers=nats://nats.garden.svc:4222',
      '--set',
      'config.nats.credsFile=/etc/gardener-ts/nats/scheduler.creds',
    ]);
    const pod = only(manifests, 'Deployment').spec.template.spec;
    expect(pod.volumes).toContainEqual({
      name: 'nats-credentials',
      secret: { secretName: 'scheduler-nats', defaultMode: 0o400 },
    });
    expect(pod.containers[0].volumeMounts).toContainEqual({
      name: 'nats-credentials',
      mountPath: '/etc/gardener-ts/nats',
      readOnly: true,
    });
    const text = only(manifests, 'ConfigMap').data['config.yaml'] as string;
    const { config, ignoredFields } = parseComponentConfig(schedulerConfigSpec, text, 'scheduler config.yaml');
    expect(ignoredFields).toEqual([]);
    expect(config.nats).toEqual({
      servers: 'nats://nats.garden.svc:4222',
      credsFile: '/etc/gardener-ts/nats/scheduler.creds',
    });
    // Without a Secret nothing is mounted.
    expect(
      only(rendered.get('scheduler')!, 'Deployment').spec.template.spec.volumes.map((v: any) => v.name),
    ).not.toContain('nats-credentials');
  });

  it('refuses a config without a healthProbes port', async () => {
    await expect(render('scheduler', ['--set', 'config.server.healthProbes=null'])).rejects.toThrow(
      /config\.server\.healthProbes\.port must be set/,
    );
  });
});
