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
    file: 'gardener-controller-manager.yaml',
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
