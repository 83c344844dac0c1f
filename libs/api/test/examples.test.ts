// Every manifest in deploy/gardener/examples parses; those of the kinds this library defines default and validate.
import { describe, expect, it } from 'vitest';
import { gardenerAsset } from '@gardener-ts/test-support';
import type { CloudProfile } from '../src/core/v1beta1/cloudprofile.js';
import type { Shoot } from '../src/core/v1beta1/shoot.js';
import { applyCloudProfileDefaults } from '../src/defaulting/index.js';
import { decode, kindOf, type KubeObject } from '../src/serialization/index.js';
import { defaultObject, hasValidation, validateObject } from '../src/validation/index.js';
import { exampleFiles, loadExamples } from '../src/testing/examples.js';

const examples = loadExamples(gardenerAsset('examples'));

/**
 * The example Shoot leaves the Kubernetes version and machine image to Gardener's admission plugin, which takes them
 * from the referenced CloudProfile before validation. Do the same with the CloudProfile of the same folder, else of
 * the nearest folder above it (`local/managedseeds/` uses the one of `local/`).
 */
function admit(file: string, object: KubeObject): KubeObject {
  if (object.kind !== 'Shoot') return object;
  const shoot = object as unknown as Shoot;
  const parts = file.split('/').slice(0, -1);
  const profileIn = (folder: string) =>
    examples.find(
      (e) =>
        e.object.kind === 'CloudProfile' &&
        e.file.split('/').slice(0, -1).join('/') === folder &&
        e.object.metadata?.name === shoot.spec.cloudProfile?.name,
    );
  const profile = parts.map((_, i) => profileIn(parts.slice(0, parts.length - i).join('/'))).find(Boolean);
  if (!profile)
    throw new Error(`${file}: the CloudProfile ${shoot.spec.cloudProfile?.name} of the example Shoot is missing`);
  return applyCloudProfileDefaults(shoot, (profile.object as unknown as CloudProfile).spec) as unknown as KubeObject;
}

describe('Gardener example manifests', () => {
  it('all parse, with apiVersion and kind', () => {
    expect(exampleFiles(gardenerAsset('examples')).length).toBeGreaterThanOrEqual(12);
    expect(examples.length).toBeGreaterThanOrEqual(15);
    for (const { object } of examples) expect(object.kind).toMatch(/^[A-Z]/);
  });

  const typed = examples.filter(({ object }) => kindOf(object));

  it('need the CloudProfile defaults where Gardener applies them (the Shoot has no Kubernetes version)', () => {
    const shoot = typed.find(({ file, object }) => object.kind === 'Shoot' && file.endsWith('local/shoot.yaml'))!;
    expect(validateObject(shoot.object).map((e) => e.field)).toEqual(['spec.kubernetes.version']);
    const admitted = admit(shoot.file, shoot.object) as unknown as Shoot;
    expect(admitted.spec.kubernetes.version).toBe('1.36.0');
    expect(admitted.spec.provider.workers![0].machine.image).toEqual({ name: 'local', version: '1.0.0' });
  });

  it('cover the central kinds', () => {
    expect(typed.map(({ object }) => object.kind).sort()).toEqual(
      expect.arrayContaining([
        'CloudProfile',
        'ControllerRegistration',
        'CredentialsBinding',
        'Project',
        'Seed',
        'Shoot',
      ]),
    );
  });

  for (const { file, object } of typed) {
    it(`${file}: ${object.kind} ${object.metadata?.name} decodes, defaults and validates without errors`, () => {
      const kind = kindOf(object)!;
      expect(() => decode(object, kind)).not.toThrow();
      expect(hasValidation(object)).toBe(true);
      const defaulted = defaultObject(admit(file, object));
      expect(validateObject(admit(file, object)).map((e) => e.message)).toEqual([]);
      expect(validateObject(defaulted).map((e) => e.message)).toEqual([]);
      // Validating an update to the same object must not find changes to immutable fields.
      expect(validateObject(defaulted, defaulted).map((e) => e.message)).toEqual([]);
    });
  }
});
