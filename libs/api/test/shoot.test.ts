import { describe, expect, it } from 'vitest';
import type { Shoot } from '../src/core/v1beta1/shoot.js';
import { defaultShoot } from '../src/defaulting/index.js';
import { validateShoot, type FieldError } from '../src/validation/index.js';

function shoot(mutate: (s: Shoot) => void = () => {}): Shoot {
  const base: Shoot = {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Shoot',
    metadata: { name: 'local', namespace: 'garden-local' },
    spec: {
      cloudProfile: { kind: 'CloudProfile', name: 'local' },
      credentialsBindingName: 'local',
      region: 'local',
      networking: { type: 'calico', nodes: '10.0.0.0/16', pods: '100.96.0.0/11', services: '100.64.0.0/13' },
      provider: {
        type: 'local',
        workers: [
          { name: 'local', machine: { type: 'local' }, minimum: 1, maximum: 2, maxSurge: 1, maxUnavailable: 0 },
        ],
      },
      kubernetes: { version: '1.35.4' },
    },
  };
  mutate(base);
  return base;
}

const messages = (errors: FieldError[]) => errors.map((e) => e.message);

describe('validateShoot', () => {
  it('accepts a complete Shoot, before and after defaulting', () => {
    expect(messages(validateShoot(shoot()))).toEqual([]);
    expect(messages(validateShoot(defaultShoot(shoot())))).toEqual([]);
  });

  it('reports missing required fields with Gardener field paths', () => {
    const errors = validateShoot(
      shoot((s) => {
        s.spec.region = '';
        s.spec.kubernetes.version = undefined;
        s.spec.cloudProfile = undefined;
      }),
    );
    expect(messages(errors)).toEqual(
      expect.arrayContaining([
        'spec.region: Required value: must specify a region',
        'spec.kubernetes.version: Required value: kubernetes version must not be empty',
        'spec.cloudProfile.name: Required value: must specify a cloud profile',
      ]),
    );
  });

  it('rejects names that are not DNS labels', () => {
    const errors = validateShoot(shoot((s) => (s.metadata!.name = 'My_Shoot')));
    expect(errors[0]).toMatchObject({ type: 'FieldValueInvalid', field: 'metadata.name', badValue: 'My_Shoot' });
    expect(errors[0].message).toMatch(/^metadata\.name: Invalid value: "My_Shoot": a lowercase RFC 1123 label/);
    expect(messages(validateShoot(shoot((s) => (s.metadata!.name = 'a--b'))))).toEqual([
      'metadata.name: Invalid value: "a--b": name may not contain two consecutive hyphens',
    ]);
  });

  it('requires valid, canonical and disjoint networks', () => {
    expect(messages(validateShoot(shoot((s) => (s.spec.networking!.pods = '100.96.0.1/11'))))).toEqual([
      'spec.networking.pods: Invalid value: "100.96.0.1/11": must be valid canonical CIDR',
    ]);
    expect(messages(validateShoot(shoot((s) => (s.spec.networking!.services = 'not-a-cidr'))))).toEqual([
      'spec.networking.services: Invalid value: "not-a-cidr": must be a valid CIDR',
    ]);
    expect(messages(validateShoot(shoot((s) => (s.spec.networking!.pods = '10.0.128.0/17'))))).toEqual([
      'spec.networking.pods: Invalid value: "10.0.128.0/17": must not overlap with "spec.networking.nodes" ("10.0.0.0/16")',
    ]);
    expect(messages(validateShoot(shoot((s) => (s.spec.networking!.type = undefined))))).toEqual([
      'spec.networking.type: Required value: networking type must be provided',
    ]);
  });

  it('validates worker pools: names, sizes, rolling update parameters, machine type', () => {
    const errors = validateShoot(
      shoot((s) => {
        s.spec.provider.workers = [
          {
            name: 'pool-with-a-long-name',
            machine: { type: '' },
            minimum: 3,
            maximum: 1,
            maxSurge: 0,
            maxUnavailable: 0,
          },
          { name: 'b', machine: { type: 'm' }, minimum: 1, maximum: 1, maxSurge: '150%' },
          { name: 'b', machine: { type: 'm' }, minimum: 1, maximum: 1 },
        ];
      }),
    );
    expect(messages(errors)).toEqual([
      'spec.provider.workers[0].name: Too long: may not be more than 15 bytes',
      'spec.provider.workers[0].machine.type: Required value: must specify a machine type',
      'spec.provider.workers[0].maximum: Forbidden: maximum value must not be less than minimum value',
      'spec.provider.workers[0].maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0',
      'spec.provider.workers[1].maxSurge: Invalid value: "150%": must not be greater than 100%',
      'spec.provider.workers[2].name: Duplicate value: "b"',
    ]);
  });

  it('needs a worker pool that can host system components', () => {
    const errors = validateShoot(shoot((s) => (s.spec.provider.workers![0].systemComponents = { allow: false })));
    expect(messages(errors)).toEqual([
      'spec.provider.workers: Forbidden: at least one active (workers[i].maximum > 0) worker pool with systemComponents.allow=true needed',
    ]);
  });

  it('checks the maintenance time window and hibernation schedules', () => {
    const errors = validateShoot(
      shoot((s) => {
        s.spec.maintenance = { timeWindow: { begin: '220000+0100', end: '221000+0100' } };
        s.spec.hibernation = {
          schedules: [
            { start: '0 18 * * MON-FRI', end: '0 8 * * MON-FRI', location: 'Europe/Berlin' },
            { start: '61 * * * *' },
            {},
            { end: '@daily', location: 'Mars/Olympus' },
          ],
        };
      }),
    );
    expect(messages(errors)).toEqual([
      'spec.hibernation.schedules[1].start: Invalid value: "61 * * * *": minute "61" is beyond the range 0-59',
      'spec.hibernation.schedules[2].start/end: Required value: either start or end has to be provided',
      'spec.hibernation.schedules[3].location: Invalid value: "Mars/Olympus": unknown time zone',
      'spec.maintenance.timeWindow: Invalid value: {"begin":"220000+0100","end":"221000+0100"}: time window must not be smaller than 30 minutes',
    ]);
  });

  it('rejects unknown operation annotations and unsupported purposes', () => {
    const errors = validateShoot(
      shoot((s) => {
        s.metadata!.annotations = { 'gardener.cloud/operation': 'explode' };
        s.spec.purpose = 'fun' as never;
      }),
    );
    expect(errors.map((e) => [e.type, e.field])).toEqual([
      ['FieldValueNotSupported', 'metadata.annotations[gardener.cloud/operation]'],
      ['FieldValueNotSupported', 'spec.purpose'],
    ]);
    expect(errors[1].message).toBe(
      'spec.purpose: Unsupported value: "fun": supported values: "evaluation", "testing", "development", "production", "infrastructure"',
    );
    // A rotation start needs a successfully created shoot (Gardener's isShootReadyForRotationStart).
    const rotating = shoot(
      (s) => (s.metadata!.annotations = { 'gardener.cloud/operation': 'rotate-credentials-start' }),
    );
    expect(validateShoot(rotating).map((e) => e.detail)).toEqual([
      'cannot start rotation of all credentials if shoot was not yet created successfully or is not ready for reconciliation',
    ]);
    rotating.status = {
      lastOperation: { type: 'Reconcile', state: 'Succeeded', progress: 100, description: '', lastUpdateTime: '' },
    } as never;
    expect(validateShoot(rotating)).toEqual([]);
  });

  it('forbids credentials and worker settings on workerless Shoots', () => {
    const errors = validateShoot(
      shoot((s) => {
        s.spec.provider.workers = [];
        s.spec.networking = { type: 'calico' };
      }),
    );
    expect(messages(errors)).toEqual([
      'spec.credentialsBindingName: Forbidden: is incompatible with workerless Shoot',
      'spec.networking.type: Forbidden: networking type is not supported for workerless Shoots',
    ]);
  });

  it('validates kubelet and control plane settings', () => {
    const errors = validateShoot(
      shoot((s) => {
        s.spec.kubernetes.kubelet = {
          imageGCHighThresholdPercent: 40,
          imageGCLowThresholdPercent: 50,
          streamingConnectionIdleTimeout: '5h',
          maxParallelImagePulls: 3,
        };
        s.spec.kubernetes.kubeControllerManager = { nodeCIDRMaskSize: 30 };
      }),
    );
    expect(messages(errors)).toEqual([
      'spec.kubernetes.kubeControllerManager.nodeCIDRMaskSize: Invalid value: 30: nodeCIDRMaskSize must be between 16 and 28',
      'spec.kubernetes.kubelet.imageGCLowThresholdPercent: Invalid value: 50: imageGCLowThresholdPercent must be less than imageGCHighThresholdPercent',
      'spec.kubernetes.kubelet.maxParallelImagePulls: Forbidden: maxParallelImagePulls must not be set to a value > 1 when serializeImagePulls is true',
      'spec.kubernetes.kubelet.streamingConnectionIdleTimeout: Invalid value: "5h": must be at most 4h',
    ]);
  });

  it('refuses worker pool versions newer than the control plane or too far behind it', () => {
    const pool = (cp: string, version: string) =>
      messages(
        validateShoot(
          shoot((s) => {
            s.spec.kubernetes.version = cp;
            s.spec.provider.workers![0]!.kubernetes = { version };
          }),
        ),
      );
    expect(pool('1.34.3', '1.35.4')).toEqual([
      'spec.provider.workers[0].kubernetes.version: Forbidden: worker group kubernetes version must not be higher than control plane version',
    ]);
    expect(pool('1.36.0', '1.33.0')).toEqual([]);
    expect(pool('1.36.0', '1.32.9')).toEqual([
      'spec.provider.workers[0].kubernetes.version: Forbidden: worker group kubernetes version must be at most three minor versions behind control plane version',
    ]);
    expect(pool('1.27.3', '1.25.0')).toEqual([]);
    expect(pool('1.27.3', '1.24.9')).toEqual([
      'spec.provider.workers[0].kubernetes.version: Forbidden: worker group kubernetes version must be at most two minor versions behind control plane version',
    ]);
    // A `major.minor` pool version is completed by admission before it is compared.
    expect(pool('1.36.0', '1.30')).toEqual([]);
  });

  it('forbids provider settings that need workers on workerless Shoots', () => {
    const errors = validateShoot(
      shoot((s) => {
        s.spec.provider = {
          type: 'local',
          infrastructureConfig: { apiVersion: 'local.provider.extensions.gardener.cloud/v1alpha1' },
          controlPlaneConfig: { apiVersion: 'local.provider.extensions.gardener.cloud/v1alpha1' },
          workersSettings: { sshAccess: { enabled: true } },
        };
        delete s.spec.credentialsBindingName;
        delete s.spec.networking;
      }),
    );
    expect(messages(errors)).toEqual([
      'spec.provider.infrastructureConfig: Forbidden: this field should not be set for workerless Shoot clusters',
      'spec.provider.controlPlaneConfig: Forbidden: this field should not be set for workerless Shoot clusters',
      'spec.provider.workersSettings: Forbidden: this field should not be set for workerless Shoot clusters',
    ]);
  });

  describe('on update', () => {
    it('keeps region, provider type, networking type and pods immutable', () => {
      const old = shoot();
      const updated = shoot((s) => {
        s.spec.region = 'other';
        s.spec.provider.type = 'aws';
        s.spec.networking!.type = 'cilium';
      });
      expect(messages(validateShoot(updated, old))).toEqual([
        'spec.region: Invalid value: "other": field is immutable',
        'spec.provider.type: Invalid value: "aws": field is immutable',
        'spec.networking.type: Invalid value: "cilium": field is immutable',
      ]);
    });

    it('leaves spec.seedName to admission: assigning, changing (the binding) and removing it', () => {
      for (const [from, to] of [
        [undefined, 'seed-a'],
        ['seed-a', 'seed-b'],
        ['seed-a', undefined],
      ])
        expect(
          validateShoot(
            shoot((s) => (s.spec.seedName = to)),
            shoot((s) => (s.spec.seedName = from)),
          ),
        ).toEqual([]);
    });

    it("forbids downgrading a worker pool's version; in-place pools may not skip a minor version either", () => {
      const old = shoot((s) => {
        s.spec.kubernetes.version = '1.34.3';
        s.spec.provider.workers![0]!.kubernetes = { version: '1.33.1' };
      });
      const pool = (version: string | undefined) =>
        messages(
          validateShoot(
            shoot((s) => {
              s.spec.kubernetes.version = '1.34.3';
              s.spec.provider.workers![0]!.kubernetes = version ? { version } : {};
            }),
            old,
          ),
        );
      const path = 'spec.provider.workers[0].kubernetes.version';
      expect(pool('1.32.0')).toEqual([`${path}: Forbidden: kubernetes version downgrade is not supported`]);
      expect(pool('1.33.0')).toEqual([`${path}: Forbidden: kubernetes version downgrade is not supported`]);
      expect(pool('1.34.3')).toEqual([]);
      // Dropping the pool's own version makes it follow the control plane: an upgrade, never a downgrade.
      expect(pool(undefined)).toEqual([]);
      const skipping = shoot((s) => {
        s.spec.kubernetes.version = '1.35.4';
        s.spec.provider.workers![0]!.kubernetes = { version: '1.35.4' };
      });
      expect(messages(validateShoot(skipping, old))).toEqual([]);
      const inPlace = (s: Shoot) =>
        Object.assign(s.spec.provider.workers![0]!, {
          updateStrategy: 'AutoInPlaceUpdate',
          maxSurge: 0,
          maxUnavailable: 1,
        });
      const inPlaceOld = structuredClone(old);
      inPlace(inPlaceOld);
      const inPlaceSkipping = structuredClone(skipping);
      inPlace(inPlaceSkipping);
      expect(messages(validateShoot(inPlaceSkipping, inPlaceOld))).toEqual([
        `${path}: Forbidden: kubernetes version upgrade cannot skip a minor version`,
      ]);
      // A new pool is compared with itself.
      const added = shoot((s) => {
        s.spec.kubernetes.version = '1.34.3';
        s.spec.provider.workers![0]!.kubernetes = { version: '1.33.1' };
        s.spec.provider.workers!.push({
          ...s.spec.provider.workers![0]!,
          name: 'new',
          kubernetes: { version: '1.32.0' },
        });
      });
      expect(messages(validateShoot(added, old))).toEqual([]);
    });

    it('forbids Kubernetes downgrades and skipping minor versions', () => {
      const old = shoot((s) => (s.spec.kubernetes.version = '1.34.3'));
      expect(
        messages(
          validateShoot(
            shoot((s) => (s.spec.kubernetes.version = '1.33.0')),
            old,
          ),
        ),
      ).toEqual([
        'spec.kubernetes.version: Forbidden: kubernetes version downgrade is not supported',
        // The pool follows the control plane's version, so Gardener reports its downgrade too.
        'spec.provider.workers[0].kubernetes.version: Forbidden: kubernetes version downgrade is not supported',
      ]);
      expect(
        messages(
          validateShoot(
            shoot((s) => (s.spec.kubernetes.version = '1.36.0')),
            old,
          ),
        ),
      ).toEqual(['spec.kubernetes.version: Forbidden: kubernetes version upgrade cannot skip a minor version']);
      expect(
        validateShoot(
          shoot((s) => (s.spec.kubernetes.version = '1.35.4')),
          old,
        ),
      ).toEqual([]);
    });
  });
});

describe('defaultShoot', () => {
  it('fills in Gardener defaults without touching the input', () => {
    const input = shoot((s) => {
      s.spec.cloudProfile = undefined;
      s.spec.cloudProfileName = 'local';
      s.spec.provider.workers![0].maxSurge = undefined;
      s.spec.provider.workers![0].maxUnavailable = undefined;
    });
    const before = structuredClone(input);
    const out = defaultShoot(input);
    expect(input).toEqual(before);
    expect(out.spec.purpose).toBe('evaluation');
    expect(out.spec.cloudProfile).toEqual({ kind: 'CloudProfile', name: 'local' });
    expect(out.spec.networking!.ipFamilies).toEqual(['IPv4']);
    expect(out.spec.provider.workers![0]).toMatchObject({
      maxSurge: 1,
      maxUnavailable: 0,
      cri: { name: 'containerd' },
      systemComponents: { allow: true },
      updateStrategy: 'AutoRollingUpdate',
      machine: { type: 'local', architecture: 'amd64' },
    });
    expect(out.spec.kubernetes.kubeProxy).toEqual({ mode: 'IPTables', enabled: true });
    expect(out.spec.kubernetes.kubelet).toMatchObject({
      failSwapOn: true,
      serializeImagePulls: true,
      kubeReserved: { cpu: '80m', memory: '1Gi', pid: '20k' },
    });
    expect(out.spec.maintenance!.autoUpdate).toEqual({ kubernetesVersion: true, machineImageVersion: true });
  });

  it('defaults in-place pools to surge 0 / unavailable 1 and keeps explicit values', () => {
    const out = defaultShoot(
      shoot((s) => {
        s.spec.provider.workers = [
          { name: 'a', machine: { type: 'm' }, minimum: 1, maximum: 1, updateStrategy: 'AutoInPlaceUpdate' },
          { name: 'b', machine: { type: 'm' }, minimum: 1, maximum: 1, maxSurge: '25%' },
        ];
      }),
    );
    expect(out.spec.provider.workers!.map((w) => [w.maxSurge, w.maxUnavailable])).toEqual([
      [0, 1],
      ['25%', 0],
    ]);
  });

  it("defaults a Shoot that leaves out spec.kubernetes (as Gardener's managedseed example shoot may)", () => {
    const out = defaultShoot(shoot((s) => delete (s.spec as Partial<Shoot['spec']>).kubernetes));
    expect(out.spec.kubernetes.kubeAPIServer).toMatchObject({ enableAnonymousAuthentication: false });
    expect(out.spec.kubernetes.kubeProxy).toEqual({ mode: 'IPTables', enabled: true });
  });

  it('gives a valid, stable maintenance window', () => {
    const a = defaultShoot(shoot()).spec.maintenance!.timeWindow;
    expect(defaultShoot(shoot()).spec.maintenance!.timeWindow).toEqual(a);
    expect(validateShoot(defaultShoot(shoot()))).toEqual([]);
  });
});
