// Tests of the feature gate and admission plugin version tables: ranges are half-open, unknown names are never
// supported, locks apply from their version on.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  admissionPluginVersionRange,
  featureGateLockedValue,
  featureGateVersionRange,
  isAdmissionPluginSupported,
  isFeatureGateSupported,
  knownAdmissionPlugins,
  knownFeatureGates,
  versionInRange,
} from './kubernetes-feature-versions.js';

describe('versionInRange', () => {
  it('is [added, removed), ignoring a v prefix and pre-release suffixes', () => {
    const range = { addedInVersion: '1.30', removedInVersion: '1.33' };
    expect(versionInRange('1.29.9', range)).toBe(false);
    expect(versionInRange('1.30.0', range)).toBe(true);
    expect(versionInRange('v1.32.7', range)).toBe(true);
    expect(versionInRange('1.33.0-rc.1', range)).toBe(false);
    expect(versionInRange('1.33.0', range)).toBe(false);
    expect(versionInRange('1.0.0', {})).toBe(true);
    expect(versionInRange('latest', {})).toBeUndefined();
  });

  it('property: a version is in the range exactly when it is not below added and below removed', () => {
    const minor = fc.integer({ min: 10, max: 40 });
    fc.assert(
      fc.property(minor, minor, minor, fc.integer({ min: 0, max: 20 }), (a, r, v, patch) => {
        const inRange = versionInRange(`1.${v}.${patch}`, { addedInVersion: `1.${a}`, removedInVersion: `1.${r}` });
        expect(inRange).toBe(v >= a && v < r);
      }),
    );
  });
});

describe('feature gates', () => {
  it('knows when a gate was added and removed', () => {
    expect(isFeatureGateSupported('AllAlpha', '1.30.0')).toBe(true);
    expect(isFeatureGateSupported('DRAControlPlaneController', '1.31.5')).toBe(true);
    expect(isFeatureGateSupported('DRAControlPlaneController', '1.32.0')).toBe(false);
    expect(isFeatureGateSupported('LegacySidecarContainers', '1.32.0')).toBe(false);
    expect(isFeatureGateSupported('LegacySidecarContainers', '1.33.2')).toBe(true);
    expect(isFeatureGateSupported('LegacySidecarContainers', '1.34.0')).toBe(false);
    expect(isFeatureGateSupported('WatchList', '1.34.1')).toBe(true);
  });

  it('never supports a gate it does not know', () => {
    expect(featureGateVersionRange('NoSuchGate')).toBeUndefined();
    expect(isFeatureGateSupported('NoSuchGate', '1.34.0')).toBe(false);
  });

  it('reports the locked value from the locking version on', () => {
    expect(featureGateLockedValue('NodeSwap', '1.33.9')).toBeUndefined();
    expect(featureGateLockedValue('NodeSwap', '1.34.0')).toBe(true);
    expect(featureGateLockedValue('AllowServiceLBStatusOnNonLB', '1.32.0')).toBe(false);
    expect(featureGateLockedValue('WatchList', '1.34.0')).toBeUndefined();
  });

  it('has well-formed entries: versions parse, removal after addition, locks within the range', () => {
    const gates = knownFeatureGates();
    expect(gates.length).toBeGreaterThan(250);
    for (const gate of gates) {
      const range = featureGateVersionRange(gate)!;
      for (const v of [range.addedInVersion, range.removedInVersion, range.lockedToDefaultInVersion])
        if (v !== undefined) expect(v, gate).toMatch(/^1\.\d+$/);
      if (range.addedInVersion && range.removedInVersion)
        expect(versionInRange(range.removedInVersion, { addedInVersion: range.addedInVersion }), gate).toBe(true);
      expect(range.lockedToDefaultInVersion === undefined, gate).toBe(range.lockedValue === undefined);
    }
  });
});

describe('admission plugins', () => {
  it('knows when a plugin was added and removed, and what it allows', () => {
    expect(isAdmissionPluginSupported('PersistentVolumeLabel', '1.30.4')).toBe(true);
    expect(isAdmissionPluginSupported('PersistentVolumeLabel', '1.31.0')).toBe(false);
    expect(isAdmissionPluginSupported('PodTopologyLabels', '1.32.0')).toBe(false);
    expect(isAdmissionPluginSupported('PodTopologyLabels', '1.33.0')).toBe(true);
    expect(isAdmissionPluginSupported('SecurityContextDeny', '1.30.0')).toBe(false);
    expect(admissionPluginVersionRange('ValidatingAdmissionWebhook')).toEqual({
      required: true,
      allowsConfiguration: true,
      allowsExternalKubeconfig: true,
    });
    expect(admissionPluginVersionRange('AlwaysPullImages')).toEqual({
      required: false,
      allowsConfiguration: false,
      allowsExternalKubeconfig: false,
    });
    expect(knownAdmissionPlugins()).toContain('NodeRestriction');
  });
});
