// Test inputs built from Gardener's example manifests (deploy/gardener/examples) and made-up objects in their shape.
import { readFileSync } from 'node:fs';
import { parseManifests, type ControllerRegistration, type Seed, type Shoot } from '@gardener-ts/api';
import { gardenerAsset } from '@gardener-ts/testing';

/** The first object of one of Gardener's example manifests, e.g. `example('local', 'shoot.yaml')`. */
export function example<T = Record<string, any>>(...path: string[]): T {
  const key = path.join('/');
  let parsed = parsedExamples.get(key);
  if (!parsed) {
    parsed = parseManifests(readFileSync(gardenerAsset('examples', ...path), 'utf8'))[0];
    parsedExamples.set(key, parsed);
  }
  return structuredClone(parsed) as T;
}
const parsedExamples = new Map<string, unknown>();

/** Gardener's local example Shoot (networking calico, provider local), renamed and placed on `seedName`. */
export function localShoot(name: string, seedName: string | undefined, namespace = 'garden-local'): Shoot {
  const shoot = example<Shoot>('local', 'shoot.yaml');
  shoot.metadata = { ...shoot.metadata, name, namespace };
  if (seedName) shoot.spec.seedName = seedName;
  return shoot;
}

/** A seed of provider `local` with DNS provider `local`, as the local setup registers it. */
export function localSeed(name: string, labels: Record<string, string> = {}): Seed {
  return {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Seed',
    metadata: { name, labels },
    spec: {
      provider: { type: 'local', region: 'local', zones: ['0'] },
      dns: { provider: { type: 'local', secretRef: { name: 'internal-domain-local', namespace: 'garden' } } },
      ingress: { domain: `ingress.${name}.seed.local.gardener.cloud`, controller: { kind: 'nginx' } },
      networks: { nodes: '172.18.0.0/16', pods: '10.1.0.0/16', services: '10.2.0.0/16' },
    },
  } as Seed;
}

/** Gardener's example ControllerRegistration of provider-local (policy Always), without its deployment reference. */
export function providerLocalRegistration(): ControllerRegistration {
  const registration = example<ControllerRegistration>('local', 'controllerregistration.yaml');
  delete registration.spec.deployment!.deploymentRefs;
  return registration;
}

/** A made-up registration. */
export function registration(
  name: string,
  resources: { kind: string; type: string; globallyEnabled?: boolean }[],
  deployment: NonNullable<ControllerRegistration['spec']['deployment']> = { policy: 'OnDemand' },
): ControllerRegistration {
  return {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'ControllerRegistration',
    metadata: { name },
    spec: { resources, deployment },
  };
}
