// Every component accepts Gardener's own example configuration unchanged (fixtures/gardener/*.yaml, copied from
// gardener/gardener with a header naming the commit); fields not implemented yet are reported as ignored.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  admissionControllerConfigSpec,
  controllerManagerConfigSpec,
  gardenletConfigSpec,
  loadComponentConfig,
  operatorConfigSpec,
  parseComponentConfig,
  resourceManagerConfigSpec,
  schedulerConfigSpec,
  type ComponentConfigSpec,
} from '../src/index.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/gardener/${name}`, import.meta.url));

const examples: { file: string; spec: ComponentConfigSpec<unknown>; ignored: string[] }[] = [
  {
    file: 'gardener-admission-controller.yaml',
    spec: admissionControllerConfigSpec as ComponentConfigSpec<unknown>,
    ignored: ['debugging'],
  },
  {
    file: 'gardener-admission-controller-ipv6.yaml',
    spec: admissionControllerConfigSpec as ComponentConfigSpec<unknown>,
    ignored: ['debugging'],
  },
  {
    file: 'gardener-controller-manager.yaml',
    spec: controllerManagerConfigSpec as ComponentConfigSpec<unknown>,
    ignored: ['debugging'],
  },
  {
    file: 'gardener-controller-manager-ipv6.yaml',
    spec: controllerManagerConfigSpec as ComponentConfigSpec<unknown>,
    ignored: ['debugging'],
  },
  {
    file: 'gardener-scheduler.yaml',
    spec: schedulerConfigSpec as ComponentConfigSpec<unknown>,
    ignored: ['debugging'],
  },
  { file: 'gardenlet.yaml', spec: gardenletConfigSpec as ComponentConfigSpec<unknown>, ignored: ['debugging'] },
  { file: 'gardener-operator.yaml', spec: operatorConfigSpec as ComponentConfigSpec<unknown>, ignored: ['debugging'] },
  {
    file: 'gardener-resource-manager.yaml',
    spec: resourceManagerConfigSpec as ComponentConfigSpec<unknown>,
    // The example spells `controllers.managedResources`; Gardener's field is `managedResource`, so Gardener ignores
    // that block as well.
    ignored: ['controllers.managedResources'],
  },
];

describe("Gardener's example component configurations", () => {
  for (const { file, spec, ignored } of examples) {
    it(`${spec.component} accepts ${file} unchanged and lists the fields it does not implement`, async () => {
      const { config, ignoredFields } = await loadComponentConfig(spec, fixture(file));
      expect(spec.runtime(config).logLevel).toBe('info');
      expect(ignoredFields).toEqual(expect.arrayContaining(ignored));
    });
  }
});

describe("Gardener's IPv6 example configurations", () => {
  // Gardener joins bind address and port as `<bindAddress>:<port>`, so its IPv6 examples bracket the literal; a Node
  // server listens on the bare address (`[::]` fails with getaddrinfo ENOTFOUND).
  it('listen on the bare IPv6 address', async () => {
    const { config: admission } = await loadComponentConfig(
      admissionControllerConfigSpec,
      fixture('gardener-admission-controller-ipv6.yaml'),
    );
    expect(admission.server.webhooks.bindAddress).toBe('::');
    expect(admissionControllerConfigSpec.runtime(admission)).toMatchObject({
      healthProbes: { bindAddress: '::', port: 2722 },
      metrics: { bindAddress: '::', port: 2723 },
    });
    const { config: controllerManager } = await loadComponentConfig(
      controllerManagerConfigSpec,
      fixture('gardener-controller-manager-ipv6.yaml'),
    );
    expect(controllerManagerConfigSpec.runtime(controllerManager)).toMatchObject({
      healthProbes: { bindAddress: '::', port: 2718 },
      metrics: { bindAddress: '::', port: 2719 },
    });
  });

  it('keep other addresses as written', () => {
    const config = (address: string) =>
      parseComponentConfig(
        resourceManagerConfigSpec,
        `apiVersion: resourcemanager.config.gardener.cloud/v1alpha1
kind: ResourceManagerConfiguration
server:
  webhooks: { bindAddress: "${address}" }
  metrics: { bindAddress: "${address}" }
`,
      ).config;
    for (const address of ['', '0.0.0.0', '127.0.0.1', '::1', 'localhost']) {
      expect(config(address).server.webhooks.bindAddress).toBe(address);
      expect(config(address).server.metrics.bindAddress).toBe(address);
    }
    expect(config('[fd00::1]').server.webhooks.bindAddress).toBe('fd00::1');
  });
});

describe('AdmissionControllerConfiguration resource limits', () => {
  const config = (limit: string) => `apiVersion: admissioncontroller.config.gardener.cloud/v1alpha1
kind: AdmissionControllerConfiguration
server:
  resourceAdmissionConfiguration:
    limits:
    - apiGroups: ["core.gardener.cloud"]
      apiVersions: ["*"]
      resources: ["shoots"]
${limit}
`;

  it('accepts a limit with count and no size (both are optional in Gardener)', () => {
    const { config: parsed } = parseComponentConfig(admissionControllerConfigSpec, config('      count: 10'));
    expect(parsed.server.resourceAdmissionConfiguration.limits).toEqual([
      { apiGroups: ['core.gardener.cloud'], apiVersions: ['*'], resources: ['shoots'], count: 10 },
    ]);
  });

  it('accepts a limit with size and count', () => {
    const { config: parsed } = parseComponentConfig(
      admissionControllerConfigSpec,
      config('      size: 100k\n      count: 5'),
    );
    expect(parsed.server.resourceAdmissionConfiguration.limits[0]).toMatchObject({ size: '100k', count: 5 });
  });

  it('refuses a negative count and names the field', () => {
    expect(() => parseComponentConfig(admissionControllerConfigSpec, config('      count: -1'))).toThrow(
      /server\.resourceAdmissionConfiguration\.limits\[0\]\.count/,
    );
  });
});
