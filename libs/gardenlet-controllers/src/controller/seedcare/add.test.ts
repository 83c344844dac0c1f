import { describe, expect, it } from 'vitest';
import { isCheckedManagedResource, managedResourceConditionsChanged } from './add.js';

const mr = (
  conditions: { type: string; status: string; reason?: string; message?: string }[],
  namespace = 'garden',
) => ({
  metadata: { namespace, name: 'provider-local' },
  status: { conditions },
});
const healthy = mr([
  { type: 'ResourcesApplied', status: 'True', reason: 'ApplySucceeded' },
  { type: 'ResourcesHealthy', status: 'True', reason: 'ResourcesHealthy' },
  { type: 'ResourcesProgressing', status: 'False', reason: 'ResourcesRolledOut' },
]);

describe('seed care wiring', () => {
  it('checks the seed at once when a ManagedResource of the garden namespace turns healthy, not on every status write', () => {
    const progressing = mr([
      { type: 'ResourcesApplied', status: 'True', reason: 'ApplySucceeded' },
      { type: 'ResourcesHealthy', status: 'True', reason: 'ResourcesHealthy' },
      { type: 'ResourcesProgressing', status: 'True', reason: 'DeploymentProgressing', message: 'rolling out' },
    ]);
    expect(managedResourceConditionsChanged({ type: 'update', oldObject: progressing, object: healthy })).toBe(true);
    const withMessage = mr([
      { type: 'ResourcesApplied', status: 'True', reason: 'ApplySucceeded', message: 'All resources are applied.' },
      ...healthy.status.conditions.slice(1),
    ]);
    expect(managedResourceConditionsChanged({ type: 'update', oldObject: healthy, object: withMessage })).toBe(true);
    // A write that leaves the three conditions as they were (a heartbeat, observedGeneration) does not.
    const again = { ...healthy, status: { ...healthy.status, observedGeneration: 2 } };
    expect(managedResourceConditionsChanged({ type: 'update', oldObject: healthy, object: again })).toBe(false);
    expect(managedResourceConditionsChanged({ type: 'create', object: healthy } as never)).toBe(true);
    expect(managedResourceConditionsChanged({ type: 'delete', object: healthy } as never)).toBe(true);
  });

  it('only maps the ManagedResources the check reads, those in the garden namespace', () => {
    expect(isCheckedManagedResource({ type: 'create', object: healthy } as never)).toBe(true);
    expect(isCheckedManagedResource({ type: 'create', object: mr([], 'shoot--local--local') } as never)).toBe(false);
  });
});
