// Seeds, shoots and cloud profiles for unit tests: ready and valid by default; a callback changes what a case needs.
import type { CloudProfile, Seed, Shoot } from '@gardener-ts/api';
import type { CloudProfileView, SchedulingInput } from '../src/types.js';

export function seed(name: string, change?: (s: Seed) => void): Seed {
  const s: Seed = {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Seed',
    metadata: { name, labels: {} },
    spec: {
      provider: { type: 'aws', region: 'eu-west-1', zones: ['eu-west-1a', 'eu-west-1b', 'eu-west-1c'] },
      dns: {},
      networks: { nodes: '10.240.0.0/16', pods: '10.241.128.0/17', services: '10.241.0.0/17' },
      settings: { scheduling: { visible: true } },
    },
    status: {
      lastOperation: {
        type: 'Reconcile',
        state: 'Succeeded',
        progress: 100,
        description: 'ok',
        lastUpdateTime: '2026-01-01T00:00:00Z',
      },
      conditions: [
        {
          type: 'GardenletReady',
          status: 'True',
          lastTransitionTime: '2026-01-01T00:00:00Z',
          lastUpdateTime: '2026-01-01T00:00:00Z',
          reason: 'GardenletReady',
          message: '',
        },
      ],
    },
  } as Seed;
  change?.(s);
  return s;
}

export function shoot(name: string, change?: (s: Shoot) => void): Shoot {
  const s: Shoot = {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Shoot',
    metadata: { name, namespace: 'garden-dev', uid: `uid-${name}`, resourceVersion: '1', generation: 1 },
    spec: {
      cloudProfile: { kind: 'CloudProfile', name: 'aws' },
      region: 'eu-west-1',
      kubernetes: { version: '1.33.0' },
      networking: { type: 'calico', nodes: '10.250.0.0/16', pods: '100.96.0.0/11', services: '100.64.0.0/13' },
      provider: {
        type: 'aws',
        workers: [{ name: 'pool', machine: { type: 'm5.large' }, minimum: 1, maximum: 2, zones: ['eu-west-1a'] }],
      },
    },
  } as Shoot;
  change?.(s);
  return s;
}

export function cloudProfile(name = 'aws', change?: (c: CloudProfile) => void): CloudProfile {
  const c = {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'CloudProfile',
    metadata: { name },
    spec: {
      type: 'aws',
      regions: [{ name: 'eu-west-1' }],
      kubernetes: { versions: [{ version: '1.33.0' }] },
      machineImages: [],
      machineTypes: [],
    },
  } as unknown as CloudProfile;
  change?.(c);
  return c;
}

export function view(profile: CloudProfile = cloudProfile()): CloudProfileView {
  return { kind: 'CloudProfile', name: profile.metadata!.name!, spec: profile.spec };
}

export function input(shootObj: Shoot, seeds: Seed[], extra: Partial<SchedulingInput> = {}): SchedulingInput {
  return { shoot: shootObj, seeds, usage: new Map(), cloudProfile: view(), strategy: 'SameRegion', ...extra };
}
