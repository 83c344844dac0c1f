// Tests of the CloudProfile spec checks the NamespacedCloudProfileValidator runs on own machine images and on the merged
// result: Gardener's local CloudProfile (defaulted) passes, and each invalid variant is refused with Gardener's path and
// words.
import { describe, expect, it } from 'vitest';
import { defaultCloudProfile, FieldPath, type CloudProfile } from '@gardener-ts/api';
import { example } from '../../test/examples.js';
import {
  capabilitiesOf,
  validateCloudProfileKubernetesSettings,
  validateCloudProfileMachineImages,
  validateCloudProfileMachineTypes,
  validateMachineImages,
  validateNamespacedCloudProfileStatus,
  validateVolumeTypes,
  type CloudProfileSpecInput,
  type SpecImage,
} from './cloudprofile-spec-validation.js';

const local = (): CloudProfileSpecInput =>
  defaultCloudProfile(example('local/cloudprofile.yaml') as CloudProfile).spec as unknown as CloudProfileSpecInput;
const status = FieldPath.root('status.cloudProfileSpec');
const messages = (errors: { message: string }[]) => errors.map((e) => e.message);

/** Gardener's example NamespacedCloudProfile's own image `ubuntu-custom`. */
const ubuntu = (): SpecImage => ({
  name: 'ubuntu-custom',
  updateStrategy: 'major',
  versions: [{ version: '18.4.201906170', architectures: ['amd64'], cri: [{ name: 'containerd' }] }],
});

describe('validateNamespacedCloudProfileStatus', () => {
  it("accepts Gardener's local CloudProfile", () => {
    expect(validateNamespacedCloudProfileStatus(local(), status)).toEqual([]);
  });

  it('checks only what the merged spec has, but always its Kubernetes versions', () => {
    expect(messages(validateNamespacedCloudProfileStatus({}, status))).toEqual([
      'status.cloudProfileSpec.kubernetes.versions: Required value: must provide at least one Kubernetes version',
    ]);
  });
});

describe('validateCloudProfileKubernetesSettings', () => {
  const k8s = FieldPath.root('status.cloudProfileSpec').child('kubernetes');
  const check = (versions: { version: string; expirationDate?: string; classification?: string }[]) =>
    messages(validateCloudProfileKubernetesSettings({ versions }, k8s));

  it('refuses an expiration date on the latest version, whatever the list order', () => {
    expect(check([{ version: '1.33.0' }, { version: '1.34.1', expirationDate: '2099-01-01T00:00:00Z' }])).toEqual([
      "status.cloudProfileSpec.kubernetes.versions[].expirationDate: Invalid value: 2099-01-01 00:00:00 +0000 UTC: expiration date of latest kubernetes version ('1.34.1') must not be set",
    ]);
    expect(check([{ version: '1.34.1' }, { version: '1.33.0', expirationDate: '2099-01-01T00:00:00Z' }])).toEqual([]);
  });

  it('refuses malformed and duplicate versions, unknown classifications, two supported versions of a minor', () => {
    expect(
      check([
        { version: '1.34' },
        { version: '1.33.0', classification: 'supported' },
        { version: '1.33.1', classification: 'supported' },
        { version: '1.33.0', classification: 'beta' },
      ]),
    ).toEqual([
      'status.cloudProfileSpec.kubernetes.versions[0]: Invalid value: {"version":"1.34"}: all Kubernetes versions must match the regex ^([0-9]+\\.){2}[0-9]+$',
      'status.cloudProfileSpec.kubernetes.versions[3].version: Duplicate value: "1.33.0"',
      'status.cloudProfileSpec.kubernetes.versions[3].classification: Unsupported value: "beta": supported values: "deprecated", "preview", "supported"',
      'status.cloudProfileSpec.kubernetes.versions[1]: Forbidden: unable to add version "1.33.0" with classification "supported". Only one "supported" version is allowed per minor version',
      'status.cloudProfileSpec.kubernetes.versions[2]: Forbidden: unable to add version "1.33.1" with classification "supported". Only one "supported" version is allowed per minor version',
    ]);
  });
});

describe('validateMachineImages and validateCloudProfileMachineImages', () => {
  const path = FieldPath.root('spec', 'machineImages').index(1);
  // Both run ValidateMachineImages; Gardener's aggregate drops the repeated messages.
  const both = (image: SpecImage, capabilities = {}) => [
    ...new Set(
      messages([
        ...validateMachineImages([image], capabilities, path, false),
        ...validateCloudProfileMachineImages([image], capabilities, path),
      ]),
    ),
  ];

  it("accepts Gardener's own example image", () => {
    expect(both(ubuntu())).toEqual([]);
  });

  it('refuses a prefixed name, no versions and an unknown update strategy', () => {
    expect(both({ name: 'vendor/ubuntu', updateStrategy: 'always', versions: [] })).toEqual([
      `spec.machineImages[1][0].name: Invalid value: "vendor/ubuntu": machine image name must be a qualified name: [name 'vendor/ubuntu' must not contain a prefix]`,
      "spec.machineImages[1][0].versions: Required value: must provide at least one version for the machine image 'vendor/ubuntu'",
      'spec.machineImages[1][0].updateStrategy: Unsupported value: "always": supported values: "major", "minor", "patch"',
    ]);
  });

  it('asks CloudProfile images for an update strategy, CRIs and architectures', () => {
    const image: SpecImage = { name: 'ubuntu-custom', versions: [{ version: '18.4.201906170' }] };
    expect(messages(validateCloudProfileMachineImages([image], {}, path))).toEqual([
      'spec.machineImages[1][0].updateStrategy: Required value: must provide an update strategy',
      'spec.machineImages[1][0].versions[0].cri: Required value: must provide at least one supported container runtime',
      'spec.machineImages[1][0].versions[0].architectures: Required value: must provide at least one architecture',
    ]);
    expect(messages(validateCloudProfileMachineImages([], {}, path))).toEqual([
      'spec.machineImages[1]: Required value: must provide at least one machine image',
    ]);
  });

  it('refuses bad versions: unparsable, duplicate, unknown classification, CRI, architecture and constraints', () => {
    const image = ubuntu();
    image.versions = [
      {
        version: 'latest',
        classification: 'stable',
        cri: [{ name: 'docker' }, { name: 'docker', containerRuntimes: [{ type: 'gvisor' }, { type: 'gvisor' }] }],
        architectures: ['s390x'],
        kubeletVersionConstraint: 'newest',
        inPlaceUpdates: { supported: true, minVersionForUpdate: 'old' },
        capabilityFlavors: [{ architecture: ['amd64'] }],
      },
      { version: '18.4.201906170', cri: [{ name: 'containerd' }], architectures: ['arm64'] },
      { version: '18.4.201906170', cri: [{ name: 'containerd' }], architectures: ['arm64'] },
    ];
    const v = 'spec.machineImages[1][0].versions';
    expect(messages(validateMachineImages([image], {}, path, false))).toEqual([
      `${v}[0].version: Invalid value: "latest": could not parse version. Use a semantic version. In case there is no semantic version for this image use the extensibility provider (define mapping in the CloudProfile) to map to the actual non semantic version`,
      `${v}[0].minVersionForInPlaceUpdate: Invalid value: "old": could not parse version. Use a semantic version.`,
      `${v}[0].classification: Unsupported value: "stable": supported values: "deprecated", "preview", "supported"`,
      `${v}[0].architectures[0]: Unsupported value: "s390x": supported values: "amd64", "arm64"`,
      `${v}[0].kubeletVersionConstraint: Invalid value: "newest": cannot parse the kubeletVersionConstraint: improper constraint: newest`,
      `${v}[2]: Duplicate value: "ubuntu-custom-18.4.201906170"`,
    ]);
    expect(messages(validateCloudProfileMachineImages([image], {}, path)).slice(-5)).toEqual([
      `${v}[0].cri[0].name: Unsupported value: "docker": supported values: "containerd"`,
      `${v}[0].cri[1]: Duplicate value: "docker"`,
      `${v}[0].cri[1].name: Unsupported value: "docker": supported values: "containerd"`,
      `${v}[0].cri[1].containerRuntimes[1].type: Duplicate value: "gvisor"`,
      `${v}[0].capabilityFlavors: Forbidden: must not provide capabilities without global definition`,
    ]);
  });

  it('checks image flavors against the capability definitions', () => {
    const capabilities = capabilitiesOf({
      machineCapabilities: [
        { name: 'architecture', values: ['amd64', 'arm64'] },
        { name: 'gpu', values: ['none', 'nvidia'] },
      ],
    });
    const image = ubuntu();
    expect(both(image, capabilities)).toEqual([
      'spec.machineImages[1][0].versions[0].capabilityFlavors: Required value: must provide at least one image flavor when multiple architectures are defined in spec.machineCapabilities',
    ]);
    image.versions![0]!.capabilityFlavors = [{ architecture: ['amd64', 'arm64'] }, { gpu: ['amd'], network: ['fast'] }];
    expect(messages(validateMachineImages([image], capabilities, path, false))).toEqual([
      'spec.machineImages[1][0].versions[0].capabilityFlavors[0].architecture: Invalid value: ["amd64","arm64"]: must not define more than one architecture within an image flavor',
      'spec.machineImages[1][0].versions[0].capabilityFlavors[1].architecture: Required value: must specify one architecture explicitly as multiple architectures are defined in spec.machineCapabilities',
      'spec.machineImages[1][0].versions[0].capabilityFlavors[1].gpu[0]: Unsupported value: "amd": supported values: "none", "nvidia"',
      'spec.machineImages[1][0].versions[0].capabilityFlavors[1]: Unsupported value: "network": supported values: "architecture", "gpu"',
    ]);
  });
});

describe('validateCloudProfileMachineTypes', () => {
  const path = status.child('machineTypes');

  it("accepts the local CloudProfile's machine types and refuses types without an architecture", () => {
    expect(validateCloudProfileMachineTypes(local().machineTypes, {}, path)).toEqual([]);
    expect(
      messages(
        validateCloudProfileMachineTypes([{ name: 'local-large', cpu: '4', gpu: '0', memory: '16Gi' }], {}, path),
      ),
    ).toEqual(['status.cloudProfileSpec.machineTypes[0].architecture: Required value: must provide an architecture']);
  });

  it('refuses bad names, negative quantities, storage without or with both sizes, unknown architectures', () => {
    expect(
      messages(
        validateCloudProfileMachineTypes(
          [
            { name: 'a/b', cpu: '-1', gpu: '0', memory: '1Gi', architecture: 'amd64', storage: { type: 'ssd' } },
            {
              name: 'big',
              cpu: '1',
              gpu: '0',
              memory: '1Gi',
              architecture: 's390x',
              storage: { type: 'ssd', size: '10Gi', minSize: '5Gi' },
              capabilities: { architecture: ['amd64'] },
            },
            { name: 'big', cpu: '1', gpu: '0', memory: '1Gi', architecture: 'amd64' },
          ],
          {},
          path,
        ),
      ),
    ).toEqual([
      `status.cloudProfileSpec.machineTypes[0].name: Invalid value: "a/b": machine type name must be a qualified name: [name 'a/b' must not contain a prefix]`,
      'status.cloudProfileSpec.machineTypes[0].cpu: Invalid value: "-1": must be greater than or equal to 0',
      'status.cloudProfileSpec.machineTypes[0].storage: Invalid value: {"type":"ssd"}: must either configure "size" or "minSize"',
      'status.cloudProfileSpec.machineTypes[1].architecture: Unsupported value: "s390x": supported values: "amd64", "arm64"',
      'status.cloudProfileSpec.machineTypes[1].storage: Invalid value: {"type":"ssd","size":"10Gi","minSize":"5Gi"}: not allowed to configure both "size" and "minSize"',
      'status.cloudProfileSpec.machineTypes[2].name: Duplicate value: "big"',
      'status.cloudProfileSpec.machineTypes[1].capabilities: Forbidden: must not provide capabilities without global definition',
    ]);
  });

  it('takes the architecture capability for the architecture when capabilities are defined', () => {
    const capabilities = { architecture: ['amd64', 'arm64'] };
    const type = { name: 'gpu', cpu: '1', gpu: '1', memory: '1Gi', capabilities: { architecture: ['arm64'] } };
    expect(validateCloudProfileMachineTypes([type], capabilities, path)).toEqual([]);
    expect(
      messages(validateCloudProfileMachineTypes([{ ...type, architecture: 'amd64' }], capabilities, path)),
    ).toEqual([
      'status.cloudProfileSpec.machineTypes[0].architecture: Invalid value: "arm64": machine type architecture (amd64) conflicts with the capability architecture (arm64)',
    ]);
  });
});

describe('validateVolumeTypes', () => {
  it('asks for a name and a class and stops at the first duplicate', () => {
    const path = status.child('volumeTypes');
    expect(validateVolumeTypes([{ name: 'ssd', class: 'premium', minSize: '20Gi' }], path)).toEqual([]);
    expect(
      messages(
        validateVolumeTypes(
          [{ name: 'ssd' }, { name: 'ssd', class: 'premium' }, { name: '', class: 'x/y', minSize: '-1' }],
          path,
        ),
      ),
    ).toEqual([
      'status.cloudProfileSpec.volumeTypes[0].class: Required value: must provide a class',
      'status.cloudProfileSpec.volumeTypes[1].name: Duplicate value: "ssd"',
    ]);
  });
});
