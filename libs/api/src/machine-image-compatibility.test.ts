// Tests of the machine image compatibility helpers shared by the ShootValidator and the shoot maintenance: kubelet
// version constraints and CRI offers (capabilities and architectures are covered through admission-plugins'
// shoot-worker-machine tests, which import them from here).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { offeredCRIs, satisfiesKubeletVersionConstraint, supportsCRI } from './machine-image-compatibility.js';

describe('satisfiesKubeletVersionConstraint', () => {
  it("reads Gardener's constraint syntax", () => {
    expect(satisfiesKubeletVersionConstraint('1.30.2', '>= 1.26, < 1.31')).toBe(true);
    expect(satisfiesKubeletVersionConstraint('1.31.0', '>= 1.26, < 1.31')).toBe(false);
    expect(satisfiesKubeletVersionConstraint('1.27.4', '=> 1.27')).toBe(true);
    expect(satisfiesKubeletVersionConstraint('1.27.4', '< 1.26 || >= 1.27')).toBe(true);
    expect(satisfiesKubeletVersionConstraint('1.27.4', 'nonsense')).toBeUndefined();
  });

  it('property: a range constraint holds exactly between its bounds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 20, max: 40 }), fc.integer({ min: 20, max: 40 }), (minor, bound) => {
        expect(satisfiesKubeletVersionConstraint(`1.${minor}.3`, `< 1.${bound}`)).toBe(minor < bound);
      }),
    );
  });
});

describe('CRI', () => {
  it('offers containerd when the version names no CRI', () => {
    expect(offeredCRIs({})).toEqual([{ name: 'containerd' }]);
    expect(supportsCRI({}, undefined)).toBe(true);
    expect(supportsCRI({}, { name: 'containerd', containerRuntimes: [{ type: 'gvisor' }] })).toBe(false);
  });

  it('needs every container runtime the pool asks for', () => {
    const version = {
      cri: [{ name: 'containerd' as const, containerRuntimes: [{ type: 'gvisor' }, { type: 'kata' }] }],
    };
    expect(supportsCRI(version, { name: 'containerd', containerRuntimes: [{ type: 'kata' }] })).toBe(true);
    expect(supportsCRI(version, { name: 'containerd', containerRuntimes: [{ type: 'kata' }, { type: 'wasm' }] })).toBe(
      false,
    );
    expect(supportsCRI(version, { name: 'docker' })).toBe(false);
  });
});
