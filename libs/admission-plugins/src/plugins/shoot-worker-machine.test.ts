import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FieldPath, type CloudProfile, type Shoot } from '@gardener-ts/api';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runChain } from '../chain.js';
import type { KubeObject } from '../attributes.js';
import { ShootValidator } from './shoot-validator.js';
import { validateMachineType } from './shoot-worker-constraints.js';
import {
  areCapabilitiesCompatible,
  capabilitiesSupportedByImageFlavors,
  capabilitiesWithDefaults,
  imageVersionArchitectures,
  machineTypeArchitecture,
  validateDataVolumeMinimumSizes,
  validateKubeletReservations,
  validateMachineCapabilities,
  validateVolumeMinimumSize,
  type CapabilityDefinition,
} from './shoot-worker-machine.js';

type Worker = NonNullable<Shoot['spec']['provider']['workers']>[number];

const definitions: CapabilityDefinition[] = [
  { name: 'architecture', values: ['amd64', 'arm64'] },
  { name: 'hypervisor', values: ['virtualized', 'baremetal'] },
];

/** Gardener's local CloudProfile with machine capabilities: a virtualized and a bare-metal machine type. */
function profile(): CloudProfile {
  const p = example('local/cloudprofile.yaml') as unknown as CloudProfile;
  p.spec.machineCapabilities = definitions.map((d) => ({ name: d.name, values: [...d.values] }));
  p.spec.machineTypes = [
    { name: 'local', cpu: '2', gpu: '0', memory: '8Gi', capabilities: { architecture: ['amd64'] } },
    {
      name: 'metal',
      cpu: '8',
      gpu: '0',
      memory: '32Gi',
      capabilities: { architecture: ['amd64'], hypervisor: ['baremetal'] },
      storage: { type: 'standard', minSize: '50Gi' },
    },
  ];
  p.spec.volumeTypes = [
    { name: 'standard', class: 'standard', minSize: '20Gi' },
    { name: 'fast', class: 'premium' },
  ];
  const versions = p.spec.machineImages[0]!.versions;
  versions.find((v) => v.version === '1.0.0')!.capabilityFlavors = [
    { architecture: ['amd64'], hypervisor: ['virtualized'] },
  ];
  versions.push({ version: '1.1.0', capabilityFlavors: [{ architecture: ['amd64'] }] });
  return p;
}

const worker = (change: (w: Worker) => void = () => undefined): Worker => {
  const w: Worker = {
    name: 'pool',
    machine: { type: 'local', image: { name: 'local', version: '1.0.0' } },
    minimum: 1,
    maximum: 2,
  };
  change(w);
  return w;
};
const path = FieldPath.root('spec', 'provider', 'workers').index(0);
const messages = (errors: { message: string }[]) => errors.map((e) => e.message);

const values = fc.uniqueArray(fc.constantFrom('a', 'b', 'c'), { maxLength: 3 });
const capabilitySet = fc.record({ x: values, y: values }, { requiredKeys: [] });
const xyDefinitions: CapabilityDefinition[] = [
  { name: 'x', values: ['a', 'b', 'c'] },
  { name: 'y', values: ['a', 'b', 'c'] },
];

describe('machine capabilities (GEP-33)', () => {
  it('fills a capability a set leaves out, or leaves empty, with all values of its definition', () => {
    expect(capabilitiesWithDefaults({ architecture: ['arm64'], hypervisor: [] }, definitions)).toEqual({
      architecture: ['arm64'],
      hypervisor: ['virtualized', 'baremetal'],
    });
    expect(capabilitiesWithDefaults(undefined, definitions)).toEqual({
      architecture: ['amd64', 'arm64'],
      hypervisor: ['virtualized', 'baremetal'],
    });
  });

  it('finds two sets compatible only when they share a value of every capability', () => {
    expect(areCapabilitiesCompatible({ architecture: ['amd64'] }, { hypervisor: ['baremetal'] }, definitions)).toBe(
      true,
    );
    expect(areCapabilitiesCompatible({ architecture: ['amd64'] }, { architecture: ['arm64'] }, definitions)).toBe(
      false,
    );
    expect(
      areCapabilitiesCompatible(
        { architecture: ['amd64'], hypervisor: ['baremetal'] },
        { hypervisor: ['virtualized'] },
        definitions,
      ),
    ).toBe(false);
  });

  it('is symmetric, reflexive for sets without empty values, and every set fits the all-defaults set', () => {
    fc.assert(
      fc.property(capabilitySet, capabilitySet, (a, b) => {
        expect(areCapabilitiesCompatible(a, b, xyDefinitions)).toBe(areCapabilitiesCompatible(b, a, xyDefinitions));
        expect(areCapabilitiesCompatible(a, a, xyDefinitions)).toBe(true);
        expect(areCapabilitiesCompatible(a, {}, xyDefinitions)).toBe(true);
      }),
    );
  });

  it('matches the set-intersection definition on every pair of sets', () => {
    fc.assert(
      fc.property(capabilitySet, capabilitySet, (a, b) => {
        const all = ['a', 'b', 'c'];
        const effective = (s: { x?: string[]; y?: string[] }, k: 'x' | 'y') => (s[k]?.length ? s[k] : all);
        const expected = (['x', 'y'] as const).every((k) => effective(a, k).some((v) => effective(b, k).includes(v)));
        expect(areCapabilitiesCompatible(a, b, xyDefinitions)).toBe(expected);
      }),
    );
  });

  it('lets an image version without flavors fit every machine type (its one flavor has all defaults)', () => {
    fc.assert(
      fc.property(capabilitySet, (machine) => {
        expect(capabilitiesSupportedByImageFlavors(machine, undefined, xyDefinitions)).toBe(true);
        expect(capabilitiesSupportedByImageFlavors(machine, [], xyDefinitions)).toBe(true);
      }),
    );
    expect(
      capabilitiesSupportedByImageFlavors(
        { hypervisor: ['baremetal'] },
        [{ hypervisor: ['virtualized'] }, { hypervisor: ['baremetal'], architecture: ['arm64'] }],
        definitions,
      ),
    ).toBe(true);
  });

  it("takes an image version's architectures from its flavors when capabilities are defined", () => {
    const version = { version: '1.0.0', architectures: ['amd64'], capabilityFlavors: [{ architecture: ['arm64'] }] };
    expect(imageVersionArchitectures(version, definitions)).toEqual(['arm64']);
    expect(imageVersionArchitectures(version, [])).toEqual(['amd64']);
    expect(imageVersionArchitectures({ version: '1.0.0' }, undefined)).toEqual(['amd64']);
    expect(imageVersionArchitectures({ version: '1.0.0' }, definitions)).toEqual(['amd64', 'arm64']);
  });

  it('refuses a machine image version none of whose flavors fits the machine type, naming the versions that do', () => {
    const metal = worker((w) => (w.machine.type = 'metal'));
    expect(messages(validateMachineCapabilities(metal, undefined, profile().spec, path))).toEqual([
      'spec.provider.workers[0].machine.image: Invalid value: {"name":"local","version":"1.0.0"}: machine image version \'local:1.0.0\' does not support the capabilities of machine type "metal", supported machine image versions are: [local:1.1.0 local:2.0.0]',
    ]);
    expect(validateMachineCapabilities(worker(), undefined, profile().spec, path)).toEqual([]);
    const newer = worker((w) => {
      w.machine.type = 'metal';
      w.machine.image = { name: 'local', version: '1.1.0' };
    });
    expect(validateMachineCapabilities(newer, undefined, profile().spec, path)).toEqual([]);
  });

  it('does not check an unchanged pool again, nor a profile without machine capabilities', () => {
    const metal = worker((w) => (w.machine.type = 'metal'));
    expect(validateMachineCapabilities(metal, metal, profile().spec, path)).toEqual([]);
    const plain = profile().spec;
    delete plain.machineCapabilities;
    expect(validateMachineCapabilities(metal, undefined, plain, path)).toEqual([]);
  });
});

describe('volume minimum size', () => {
  const sized = (type: string, size: string, machineType = 'local') =>
    worker((w) => {
      w.machine.type = machineType;
      w.volume = { type, size };
    });

  it("refuses a volume below its volume type's minimum, with Gardener's message", () => {
    expect(messages(validateVolumeMinimumSize(sized('standard', '10Gi'), profile().spec, path))).toEqual([
      'spec.provider.workers[0].volume.size: Invalid value: "10Gi": size must be >= 20Gi',
    ]);
    expect(validateVolumeMinimumSize(sized('standard', '20Gi'), profile().spec, path)).toEqual([]);
    expect(validateVolumeMinimumSize(sized('fast', '1Gi'), profile().spec, path)).toEqual([]);
  });

  it("applies the machine type's storage minimum to its storage type first", () => {
    expect(messages(validateVolumeMinimumSize(sized('standard', '30Gi', 'metal'), profile().spec, path))).toEqual([
      'spec.provider.workers[0].volume.size: Invalid value: "30Gi": size must be >= 50Gi',
    ]);
    expect(validateVolumeMinimumSize(sized('standard', '50Gi', 'metal'), profile().spec, path)).toEqual([]);
    // Another storage type: only the volume type's minimum applies.
    expect(validateVolumeMinimumSize(sized('fast', '30Gi', 'metal'), profile().spec, path)).toEqual([]);
  });

  it('leaves sizes that do not parse and volumes without a type to the static validation', () => {
    expect(validateVolumeMinimumSize(sized('standard', 'big'), profile().spec, path)).toEqual([]);
    expect(
      validateVolumeMinimumSize(
        worker((w) => (w.volume = { size: '1Gi' })),
        profile().spec,
        path,
      ),
    ).toEqual([]);
  });

  it('refuses exactly the sizes below the minimum', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 100 }), (size, min) => {
        const p = profile().spec;
        p.volumeTypes = [{ name: 'standard', class: 'standard', minSize: `${min}Gi` }];
        expect(validateVolumeMinimumSize(sized('standard', `${size}Gi`), p, path).length).toBe(size < min ? 1 : 0);
      }),
    );
  });
});

describe('kubelet reservations against the machine type', () => {
  const kubeletPath = path.child('kubernetes', 'kubelet');
  const machineType = () => profile().spec.machineTypes[0];

  it("refuses reservations that reach the machine type's CPU or memory, with Gardener's messages", () => {
    const kubelet = {
      kubeReserved: { cpu: '1', memory: '4Gi' },
      systemReserved: { cpu: '1000m', memory: '4Gi' },
    };
    expect(messages(validateKubeletReservations(kubelet, machineType(), kubeletPath))).toEqual([
      "spec.provider.workers[0].kubernetes.kubelet: Invalid value: \"kubeReserved CPU + systemReserved CPU: 2\": total reserved CPU (kubeReserved + systemReserved) cannot be more than the Node's CPU capacity '2'",
      "spec.provider.workers[0].kubernetes.kubelet: Invalid value: \"kubeReserved memory + systemReserved memory: 8Gi\": total reserved memory (kubeReserved + systemReserved) cannot be more than the Node's memory capacity '8Gi'",
    ]);
  });

  it('accepts reservations below capacity, and no reservations', () => {
    const kubelet = { kubeReserved: { cpu: '500m', memory: '1Gi' }, systemReserved: { cpu: '1' } };
    expect(validateKubeletReservations(kubelet, machineType(), kubeletPath)).toEqual([]);
    expect(validateKubeletReservations({}, machineType(), kubeletPath)).toEqual([]);
    expect(validateKubeletReservations(undefined, machineType(), kubeletPath)).toEqual([]);
  });

  it('refuses exactly the CPU reservations that reach the capacity', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 3000 }), (kube, system) => {
        const kubelet = { kubeReserved: { cpu: `${kube}m` }, systemReserved: { cpu: `${system}m` } };
        expect(validateKubeletReservations(kubelet, machineType(), kubeletPath).length).toBe(
          kube + system >= 2000 ? 1 : 0,
        );
      }),
    );
  });
});

describe('ShootValidator: capabilities, volume size and kubelet reservations', () => {
  async function admit(shoot: KubeObject) {
    delete shoot.metadata!.annotations!['authentication.gardener.cloud/issuer']; // the garden of these tests has none
    return runChain(
      [ShootValidator],
      request('CREATE', shoot),
      staticListers([example('local/project.yaml'), profile() as unknown as KubeObject], async () => true),
    );
  }

  it('refuses a new Shoot whose bare-metal pool runs an image version without a bare-metal flavor', async () => {
    const s = example('local/shoot.yaml');
    s.spec.provider.workers[0].machine = { type: 'metal', image: { name: 'local', version: '1.0.0' } };
    const result = await admit(s);
    expect(!result.allowed && result.message).toContain(
      'does not support the capabilities of machine type "metal", supported machine image versions are: [local:1.1.0 local:2.0.0]',
    );
    s.spec.provider.workers[0].machine.image.version = '1.1.0';
    expect((await admit(s)).allowed).toBe(true);
  });

  it('refuses a pool volume below the minimum and kubelet reservations above the capacity', async () => {
    const s = example('local/shoot.yaml');
    s.spec.provider.workers[0].volume = { type: 'standard', size: '10Gi' };
    s.spec.provider.workers[0].kubernetes = { kubelet: { kubeReserved: { memory: '9Gi' } } };
    const result = await admit(s);
    expect(!result.allowed && result.message).toBe(
      'shoots.core.gardener.cloud "local" is forbidden: [spec.provider.workers[0].volume.size: Invalid value: "10Gi": size must be >= 20Gi, spec.provider.workers[0].kubernetes.kubelet: Invalid value: "kubeReserved memory + systemReserved memory: 9Gi": total reserved memory (kubeReserved + systemReserved) cannot be more than the Node\'s memory capacity \'8Gi\']',
    );
  });

  it("applies the Shoot's kubelet configuration to a pool with a kubernetes section of its own", async () => {
    const s = example('local/shoot.yaml');
    s.spec.kubernetes.kubelet = { systemReserved: { cpu: '3' } };
    const plain = await admit(structuredClone(s));
    expect(plain.allowed).toBe(true);
    s.spec.provider.workers[0].kubernetes = {};
    const withSection = await admit(s);
    expect(!withSection.allowed && withSection.message).toContain(
      "spec.provider.workers[0].kubernetes.kubelet: Invalid value: \"kubeReserved CPU + systemReserved CPU: 3\": total reserved CPU (kubeReserved + systemReserved) cannot be more than the Node's CPU capacity '2'",
    );
  });
});

describe('data volume minimum sizes', () => {
  it('accepts data volumes at or above the minimum of their volume type, and untyped or unknown types', () => {
    const w = worker((w) => {
      w.dataVolumes = [
        { name: 'a', type: 'standard', size: '20Gi' },
        { name: 'b', type: 'standard', size: '100Gi' },
        { name: 'c', type: 'fast', size: '1Gi' },
        { name: 'd', size: '1Gi' },
        { name: 'e', type: 'unknown', size: '1Gi' },
      ];
    });
    expect(validateDataVolumeMinimumSizes(w, profile().spec, path)).toEqual([]);
  });

  it("refuses each data volume below its volume type's minSize at its own field path", () => {
    const w = worker((w) => {
      w.dataVolumes = [
        { name: 'ok', type: 'standard', size: '30Gi' },
        { name: 'small', type: 'standard', size: '5Gi' },
      ];
    });
    expect(messages(validateDataVolumeMinimumSizes(w, profile().spec, path))).toEqual([
      'spec.provider.workers[0].dataVolumes[1].size: Invalid value: "5Gi": size must be >= 20Gi',
    ]);
  });

  it("applies the machine type's storage minimum first when its storage type is the data volume's type", () => {
    const w = worker((w) => {
      w.machine.type = 'metal';
      w.dataVolumes = [{ name: 'data', type: 'standard', size: '30Gi' }];
    });
    expect(messages(validateDataVolumeMinimumSizes(w, profile().spec, path))).toEqual([
      'spec.provider.workers[0].dataVolumes[0].size: Invalid value: "30Gi": size must be >= 50Gi',
    ]);
  });

  it('refuses exactly the sizes below the minimum', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), (gi) => {
        const w = worker((w) => (w.dataVolumes = [{ name: 'd', type: 'standard', size: `${gi}Gi` }]));
        expect(validateDataVolumeMinimumSizes(w, profile().spec, path).length).toBe(gi < 20 ? 1 : 0);
      }),
    );
  });
});

describe('machine type architecture from capabilities', () => {
  it("takes the single architecture capability, else the type's architecture field, else amd64", () => {
    expect(machineTypeArchitecture({ architecture: 'amd64', capabilities: { architecture: ['arm64'] } })).toBe('arm64');
    expect(machineTypeArchitecture({ architecture: 'arm64', capabilities: { architecture: ['amd64', 'arm64'] } })).toBe(
      'arm64',
    );
    expect(machineTypeArchitecture({ capabilities: { hypervisor: ['baremetal'] } })).toBe('amd64');
    expect(machineTypeArchitecture({})).toBe('amd64');
  });

  it("checks the pool's architecture against the machine type's architecture capability", () => {
    const p = profile();
    // CloudProfile defaulting gives every machine type `architecture: amd64`; the capability decides.
    p.spec.machineTypes.push({
      name: 'graviton',
      cpu: '2',
      gpu: '0',
      memory: '8Gi',
      architecture: 'amd64',
      capabilities: { architecture: ['arm64'] },
    });
    const arm = worker((w) => (w.machine = { type: 'graviton', architecture: 'arm64' }));
    expect(validateMachineType(arm, undefined, p.spec, undefined, path)).toEqual([]);
    const amd = worker((w) => (w.machine = { type: 'graviton', architecture: 'amd64' }));
    expect(messages(validateMachineType(amd, undefined, p.spec, undefined, path))).toEqual([
      'spec.provider.workers[0].machine.type: Invalid value: "graviton": machine type "graviton" does not support CPU architecture "amd64", supported types are [local metal]',
    ]);
    const wrongType = worker((w) => (w.machine = { type: 'local', architecture: 'arm64' }));
    expect(messages(validateMachineType(wrongType, undefined, p.spec, undefined, path))).toEqual([
      'spec.provider.workers[0].machine.type: Invalid value: "local": machine type "local" does not support CPU architecture "arm64", supported types are [graviton]',
    ]);
  });
});

describe('ShootValidator: data volumes', () => {
  it("refuses a new Shoot's data volume below the volume type's minimum and accepts it at the minimum", async () => {
    const s = example('local/shoot.yaml');
    delete s.metadata!.annotations!['authentication.gardener.cloud/issuer'];
    s.spec.provider.workers[0].volume = { type: 'standard', size: '20Gi' };
    s.spec.provider.workers[0].dataVolumes = [{ name: 'data', type: 'standard', size: '10Gi' }];
    const listers = staticListers(
      [example('local/project.yaml'), profile() as unknown as KubeObject],
      async () => true,
    );
    const result = await runChain([ShootValidator], request('CREATE', s), listers);
    expect(result).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'shoots.core.gardener.cloud "local" is forbidden: spec.provider.workers[0].dataVolumes[0].size: Invalid value: "10Gi": size must be >= 20Gi',
    });
    s.spec.provider.workers[0].dataVolumes[0].size = '20Gi';
    expect((await runChain([ShootValidator], request('CREATE', s), listers)).allowed).toBe(true);
  });
});
