import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseManifests, type KubeObject } from '../serialization/index.js';
import { defaultObject, validateObject } from './registry.js';

const exampleShoot = (): KubeObject => {
  const file = fileURLToPath(new URL('../../../../deploy/gardener/examples/local/shoot.yaml', import.meta.url));
  const [shoot] = parseManifests(readFileSync(file, 'utf8'), 'shoot.yaml') as [KubeObject & { spec: object }];
  return defaultObject({ ...shoot, spec: { ...shoot.spec, kubernetes: { version: '1.33.0' } } });
};

const lastOperation = {
  type: 'Create',
  state: 'Processing',
  progress: 0,
  description: 'Creation of Shoot cluster in progress.',
  lastUpdateTime: '2026-01-01T00:00:00Z',
};

describe('validateObject and status (decoded as Gardener decodes into Go structs)', () => {
  it('accepts the example Shoot with a status holding only lastOperation (a finalizer added by a controller)', () => {
    const old = { ...exampleShoot(), status: { lastOperation } };
    const updated = { ...old, metadata: { ...old.metadata, finalizers: ['gardener'] } };
    expect(validateObject(old)).toEqual([]);
    expect(validateObject(updated, old)).toEqual([]);
  });

  it('accepts a condition without reason and message, and without times Go would write as null', () => {
    const shoot = { ...exampleShoot(), status: { conditions: [{ type: 'APIServerAvailable', status: 'True' }] } };
    expect(validateObject(shoot)).toEqual([]);
  });

  it('still refuses wrongly typed status fields and invalid enum values', () => {
    const shoot = { ...exampleShoot(), status: { hibernated: 'yes', lastOperation: { ...lastOperation, state: 'X' } } };
    const errors = validateObject(shoot).map((e) => [e.type, e.field]);
    expect(errors).toContainEqual(['FieldValueInvalid', 'status.hibernated']);
    expect(errors).toContainEqual(['FieldValueInvalid', 'status.lastOperation.state']);
  });

  it('still refuses a spec without a required field', () => {
    const shoot = exampleShoot();
    const { region: _, ...spec } = shoot.spec as { region: string };
    expect(validateObject({ ...shoot, spec }).map((e) => e.field)).toContain('spec.region');
  });
});

describe('defaultObject', () => {
  it("fills Go's zero values into a status", () => {
    const shoot = defaultObject({ ...exampleShoot(), status: { lastOperation } });
    expect(shoot.status).toEqual({
      lastOperation,
      gardener: { id: '', name: '', version: '' },
      hibernated: false,
      technicalID: '',
      uid: '',
    });
  });

  it('adds no status to an object without one', () => {
    expect(defaultObject(exampleShoot()).status).toBeUndefined();
  });
});

describe('defaultObject of a NamespacedCloudProfile (Gardener example/35-namespacedcloudprofile.yaml)', () => {
  const example = (): KubeObject =>
    parseManifests(
      [
        'apiVersion: core.gardener.cloud/v1beta1',
        'kind: NamespacedCloudProfile',
        'metadata: {name: custom-cloudprofile-1, namespace: garden-local}',
        'spec:',
        '  parent: {kind: CloudProfile, name: local}',
        '  machineTypes: [{name: local-large, cpu: "4", gpu: "0", memory: 16Gi}]',
        '  volumeTypes: [{name: fast, class: ssd}]',
        '  machineImages: [{name: local, versions: [{version: 1.0.0, expirationDate: "2024-12-31T23:59:59Z"}]}]',
      ].join('\n'),
      'ncp.yaml',
    )[0] as KubeObject;

  it("gives its machine types the architecture amd64 and usable, its volume types usable, as Gardener's defaulter", () => {
    const spec = (defaultObject(example()) as KubeObject & { spec: Record<string, unknown[]> }).spec;
    expect(spec.machineTypes).toEqual([
      { name: 'local-large', cpu: '4', gpu: '0', memory: '16Gi', architecture: 'amd64', usable: true },
    ]);
    expect(spec.volumeTypes).toEqual([{ name: 'fast', class: 'ssd', usable: true }]);
  });

  it('leaves its machine images alone: they only extend the parent’s (no CRI, architecture or update strategy)', () => {
    const spec = (defaultObject(example()) as KubeObject & { spec: Record<string, unknown[]> }).spec;
    expect(spec.machineImages).toEqual([
      { name: 'local', versions: [{ version: '1.0.0', expirationDate: '2024-12-31T23:59:59Z' }] },
    ]);
  });
});
