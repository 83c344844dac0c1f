import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CloudProfile, NamespacedCloudProfile } from '@gardener-ts/api';
import { example } from '../../../test/support/examples.js';
import { mergeCloudProfileSpec } from './merge.js';

const parent = () => example<CloudProfile>('local', 'cloudprofile.yaml').spec;

describe('mergeCloudProfileSpec', () => {
  it("extends expiration dates, adds machine images, versions and types to Gardener's local CloudProfile", () => {
    const spec: NamespacedCloudProfile['spec'] = {
      parent: { kind: 'CloudProfile', name: 'local' },
      kubernetes: { versions: [{ version: '1.33.0', expirationDate: '2027-01-01T00:00:00Z' }, { version: '9.9.9' }] },
      machineImages: [
        {
          name: 'local',
          versions: [{ version: '1.0.0', expirationDate: '2027-02-01T00:00:00Z' }, { version: '3.0.0' }],
        },
        { name: 'custom', versions: [{ version: '1.0.0' }] },
      ],
      machineTypes: [{ name: 'big', cpu: '8', gpu: '0', memory: '32Gi', usable: true }],
      limits: { maxNodesTotal: 10 },
    } as NamespacedCloudProfile['spec'];
    const merged = mergeCloudProfileSpec(parent(), spec);
    expect(merged.kubernetes.versions?.find((v) => v.version === '1.33.0')?.expirationDate).toBe(
      '2027-01-01T00:00:00Z',
    );
    expect(merged.kubernetes.versions?.map((v) => v.version)).not.toContain('9.9.9');
    const local = merged.machineImages.find((m) => m.name === 'local')!;
    expect(local.versions.map((v) => v.version)).toEqual(['2.0.0', '1.0.0', '3.0.0']);
    expect(local.versions.find((v) => v.version === '1.0.0')?.expirationDate).toBe('2027-02-01T00:00:00Z');
    expect(merged.machineImages.map((m) => m.name)).toEqual(['local', 'custom']);
    expect(merged.machineTypes.map((m) => m.name)).toEqual(['local', 'big']);
    expect(merged.limits).toEqual({ maxNodesTotal: 10 });
    expect(merged.regions).toEqual(parent().regions);
  });

  it('is idempotent: merging twice changes nothing (property)', () => {
    const name = fc.constantFrom('local', 'custom', 'other');
    const version = fc.constantFrom('1.0.0', '2.0.0', '3.0.0');
    const images = fc.array(fc.record({ name, versions: fc.array(fc.record({ version }), { maxLength: 3 }) }), {
      maxLength: 3,
    });
    fc.assert(
      fc.property(images, (machineImages) => {
        const spec = {
          parent: { kind: 'CloudProfile', name: 'local' },
          machineImages,
        } as NamespacedCloudProfile['spec'];
        const once = mergeCloudProfileSpec(parent(), spec);
        expect(mergeCloudProfileSpec(once, spec)).toEqual(once);
      }),
    );
  });
});
