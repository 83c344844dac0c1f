import { describe, expect, it } from 'vitest';
import { FieldPath, type CloudProfile, type Shoot } from '@gardener-ts/api';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { managedIssuerConfigSecret } from './shoot-managed-issuer.js';
import { runChain } from '../chain.js';
import { ShootValidator } from './shoot-validator.js';
import {
  validateContainerRuntimeInterface,
  validateMachineType,
  validateVolumeType,
} from './shoot-worker-constraints.js';
import type { KubeObject } from '../attributes.js';

type Worker = NonNullable<Shoot['spec']['provider']['workers']>[number];

/** Gardener's local CloudProfile with two zones, a second machine type and two volume types. */
function profile(): CloudProfile {
  const p = example('local/cloudprofile.yaml') as unknown as CloudProfile;
  p.spec.regions = [
    {
      name: 'local',
      zones: [
        { name: 'local-a' },
        { name: 'local-b', unavailableMachineTypes: ['large'], unavailableVolumeTypes: ['fast'] },
      ],
    },
  ];
  p.spec.machineTypes.push({ name: 'large', cpu: '8', gpu: '0', memory: '32Gi' });
  p.spec.volumeTypes = [
    { name: 'fast', class: 'premium' },
    { name: 'slow', class: 'standard' },
  ];
  p.spec.machineImages[0]!.versions.find((v) => v.version === '1.0.0')!.cri = [
    { name: 'containerd', containerRuntimes: [{ type: 'gvisor' }] },
  ];
  return p;
}

const worker = (change: (w: Worker) => void = () => undefined): Worker => {
  const w: Worker = {
    name: 'pool',
    machine: { type: 'large', image: { name: 'local', version: '1.0.0' } },
    minimum: 1,
    maximum: 2,
    zones: ['local-a'],
  };
  change(w);
  return w;
};
const path = FieldPath.root('spec', 'provider', 'workers').index(0);
const messages = (errors: { message: string }[]) => errors.map((e) => e.message);
const region = () => profile().spec.regions[0];

describe('machine and volume types in the zones of a pool', () => {
  it("refuses a machine type unavailable in one of the pool's zones, with Gardener's message", () => {
    expect(validateMachineType(worker(), undefined, profile().spec, region(), path)).toEqual([]);
    const inB = worker((w) => (w.zones = ['local-a', 'local-b']));
    expect(messages(validateMachineType(inB, undefined, profile().spec, region(), path))).toEqual([
      'spec.provider.workers[0].machine.type: Invalid value: "large": machine type "large" is unavailable in at least one zone, supported types are [local]',
    ]);
    // An existing pool keeps its machine type when a zone is added (Gardener checks the type only when it changes).
    expect(validateMachineType(inB, worker(), profile().spec, region(), path)).toEqual([]);
  });

  it('names every reason a machine type cannot be used, and lists only types the pool could use', () => {
    const p = profile().spec;
    p.machineTypes.find((t) => t.name === 'large')!.usable = false;
    p.machineTypes.push({ name: 'arm', cpu: '4', gpu: '0', memory: '8Gi', architecture: 'arm64' });
    const inB = worker((w) => (w.zones = ['local-b']));
    expect(messages(validateMachineType(inB, undefined, p, region(), path))).toEqual([
      'spec.provider.workers[0].machine.type: Invalid value: "large": machine type "large" is unusable, is unavailable in at least one zone, supported types are [local]',
    ]);
    const arm = worker((w) => (w.machine.type = 'arm'));
    expect(messages(validateMachineType(arm, undefined, p, region(), path))).toEqual([
      'spec.provider.workers[0].machine.type: Invalid value: "arm": machine type "arm" does not support CPU architecture "amd64", supported types are [local]',
    ]);
    const unknown = worker((w) => (w.machine.type = 'huge'));
    expect(messages(validateMachineType(unknown, undefined, p, region(), path))).toEqual([
      'spec.provider.workers[0].machine.type: Unsupported value: "huge": supported values: "local"',
    ]);
  });

  it("refuses a volume type unavailable in one of the pool's zones", () => {
    const volume = (type: string, zones: string[]) =>
      worker((w) => {
        w.volume = { type, size: '20Gi' };
        w.zones = zones;
      });
    expect(validateVolumeType(volume('fast', ['local-a']), undefined, profile().spec, region(), path)).toEqual([]);
    expect(
      messages(validateVolumeType(volume('fast', ['local-a', 'local-b']), undefined, profile().spec, region(), path)),
    ).toEqual([
      'spec.provider.workers[0].volume.type: Invalid value: "fast": volume type "fast" is unavailable in at least one zone, supported types are [slow]',
    ]);
    expect(messages(validateVolumeType(volume('ssd', ['local-a']), undefined, profile().spec, region(), path))).toEqual(
      ['spec.provider.workers[0].volume.type: Unsupported value: "ssd": supported values: "fast", "slow"'],
    );
  });
});

describe('CRI and container runtimes of the machine image version', () => {
  const images = () => profile().spec.machineImages;

  it('accepts the container runtimes the image version offers', () => {
    const gvisor = worker((w) => (w.cri = { name: 'containerd', containerRuntimes: [{ type: 'gvisor' }] }));
    expect(validateContainerRuntimeInterface(gvisor, undefined, images(), path)).toEqual([]);
  });

  it("refuses a container runtime the image version does not offer, with Gardener's message", () => {
    const kata = worker(
      (w) => (w.cri = { name: 'containerd', containerRuntimes: [{ type: 'gvisor' }, { type: 'kata' }] }),
    );
    expect(messages(validateContainerRuntimeInterface(kata, undefined, images(), path))).toEqual([
      "spec.provider.workers[0].cri.containerRuntimes[1].type: Invalid value: \"kata\": machine image 'local@1.0.0' does not support container runtime 'kata', supported values: [gvisor]",
    ]);
    // Unchanged CRI and image are not checked again (the profile may have dropped the runtime since).
    expect(validateContainerRuntimeInterface(kata, kata, images(), path)).toEqual([]);
  });

  it('refuses a CRI the image version does not offer (a version without `cri` offers containerd)', () => {
    const other = worker((w) => (w.cri = { name: 'cri-o' as 'containerd' }));
    expect(messages(validateContainerRuntimeInterface(other, undefined, images(), path))).toEqual([
      "spec.provider.workers[0].cri.name: Invalid value: \"cri-o\": machine image 'local@1.0.0' does not support CRI 'cri-o', supported values: [containerd]",
    ]);
    const plain = profile().spec.machineImages;
    delete plain[0]!.versions.find((v) => v.version === '1.0.0')!.cri;
    expect(
      validateContainerRuntimeInterface(
        worker((w) => (w.cri = { name: 'containerd' })),
        undefined,
        plain,
        path,
      ),
    ).toEqual([]);
  });
});

describe('ShootValidator: worker machine constraints', () => {
  it('refuses a new Shoot whose pool uses a machine type unavailable in its zone, and one with an unknown runtime', async () => {
    const s = example('local/shoot.yaml');
    s.spec.provider.workers[0].machine.type = 'large';
    s.spec.provider.workers[0].zones = ['local-b'];
    const result = await runChain(
      [ShootValidator],
      request('CREATE', s),
      staticListers(
        [
          example('local/project.yaml'),
          profile() as unknown as KubeObject,
          managedIssuerConfigSecret('discovery.local.gardener.cloud'),
        ],
        async () => true,
      ),
    );
    expect(result).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'shoots.core.gardener.cloud "local" is forbidden: spec.provider.workers[0].machine.type: Invalid value: "large": machine type "large" is unavailable in at least one zone, supported types are [local]',
    });
    s.spec.provider.workers[0].zones = ['local-a'];
    s.spec.provider.workers[0].cri = { name: 'containerd', containerRuntimes: [{ type: 'kata' }] };
    const runtime = await runChain(
      [ShootValidator],
      request('CREATE', s),
      staticListers(
        [
          example('local/project.yaml'),
          profile() as unknown as KubeObject,
          managedIssuerConfigSecret('discovery.local.gardener.cloud'),
        ],
        async () => true,
      ),
    );
    expect(!runtime.allowed && runtime.message).toContain(
      "spec.provider.workers[0].cri.containerRuntimes[0].type: Invalid value: \"kata\": machine image 'local@1.0.0' does not support container runtime 'kata', supported values: [gvisor]",
    );
  });
});
