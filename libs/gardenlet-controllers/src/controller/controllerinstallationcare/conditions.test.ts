import { describe, expect, it } from 'vitest';
import { installationOf } from './add.js';
import { careConditions } from './conditions.js';

const clock = { now: () => new Date('2026-01-01T00:00:00Z') };
const mr = (applied: string, healthy: string, progressing: string, generation = 1, observed = 1) => ({
  apiVersion: 'resources.gardener.cloud/v1alpha1',
  kind: 'ManagedResource',
  metadata: { name: 'ci', namespace: 'garden', generation },
  status: {
    observedGeneration: observed,
    conditions: [
      { type: 'ResourcesApplied', status: applied, message: 'applied?' },
      { type: 'ResourcesHealthy', status: healthy, message: 'healthy?' },
      { type: 'ResourcesProgressing', status: progressing, message: 'progressing?' },
    ],
  },
});
const byType = (cs: { type: string; status: string; reason: string }[]) =>
  Object.fromEntries(cs.map((c) => [c.type, `${c.status}/${c.reason}`]));

describe('ControllerInstallation care conditions', () => {
  it('are Installed, Healthy and not Progressing for an applied, healthy, rolled out ManagedResource', () => {
    expect(byType(careConditions(undefined, mr('True', 'True', 'False'), clock))).toEqual({
      Installed: 'True/InstallationSuccessful',
      Healthy: 'True/ControllerHealthy',
      Progressing: 'False/ControllerRolledOut',
    });
  });

  it('follow an unhealthy or rolling ManagedResource and an outdated status', () => {
    expect(byType(careConditions(undefined, mr('True', 'False', 'True'), clock))).toEqual({
      Installed: 'True/InstallationSuccessful',
      Healthy: 'False/ControllerNotHealthy',
      Progressing: 'True/ControllerNotRolledOut',
    });
    expect(byType(careConditions(undefined, mr('True', 'True', 'False', 2, 1), clock)).Installed).toBe(
      'False/OutdatedStatus',
    );
  });

  it('keep other conditions (Valid, Required) and say when the ManagedResource is missing', () => {
    const valid = {
      type: 'Valid',
      status: 'True' as const,
      reason: 'RegistrationValid',
      message: '',
      lastTransitionTime: '',
      lastUpdateTime: '',
    };
    const cs = careConditions([valid], undefined, clock);
    expect(byType(cs)).toEqual({
      Valid: 'True/RegistrationValid',
      Installed: 'False/InstallationPending',
      Healthy: 'Unknown/ManagedResourceNotFound',
      Progressing: 'Unknown/ManagedResourceNotFound',
    });
  });

  it('map a ManagedResource to its installation by label, only in the garden namespace', () => {
    expect(
      installationOf({ metadata: { namespace: 'garden', labels: { 'controllerinstallation-name': 'ci' } } }),
    ).toEqual([{ namespace: '', name: 'ci' }]);
    expect(
      installationOf({ metadata: { namespace: 'shoot--a--b', labels: { 'controllerinstallation-name': 'ci' } } }),
    ).toEqual([]);
    expect(installationOf({ metadata: { namespace: 'garden' } })).toEqual([]);
  });
});
