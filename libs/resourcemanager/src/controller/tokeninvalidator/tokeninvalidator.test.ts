import { describe, expect, it } from 'vitest';
import { planInvalidation, type InvalidatorInput } from './rules.js';

const skip = 'token-invalidator.resources.gardener.cloud/skip';
const consider = 'token-invalidator.resources.gardener.cloud/consider';
const purpose = 'resources.gardener.cloud/purpose';

const plan = (over: Partial<InvalidatorInput>) =>
  planInvalidation({
    secretLabels: {},
    serviceAccount: { automountServiceAccountToken: false },
    mountedByPod: async () => false,
    ...over,
  });

describe('planInvalidation', () => {
  it('considers the Secret of a ServiceAccount with automountServiceAccountToken=false', async () => {
    expect(await plan({})).toEqual({ addPurpose: true, consider: 'add' });
  });
  it('keeps an existing purpose label', async () => {
    expect(await plan({ secretLabels: { [purpose]: 'something' } })).toEqual({ addPurpose: false, consider: 'add' });
  });
  it('removes the consider label when automount is not false (unset or true)', async () => {
    expect(await plan({ secretLabels: { [consider]: 'true' }, serviceAccount: {} })).toMatchObject({
      consider: 'remove',
    });
    expect(await plan({ serviceAccount: { automountServiceAccountToken: true } })).toMatchObject({
      consider: 'remove',
    });
  });
  it('removes the consider label when the ServiceAccount opts out with the skip label', async () => {
    expect(
      await plan({ serviceAccount: { automountServiceAccountToken: false, metadata: { labels: { [skip]: 'true' } } } }),
    ).toMatchObject({ consider: 'remove' });
  });
  it('does nothing more once considered', async () => {
    let asked = false;
    const result = await plan({
      secretLabels: { [purpose]: 'token-invalidator', [consider]: 'true' },
      mountedByPod: async () => (asked = true),
    });
    expect(result).toEqual({ addPurpose: false, consider: 'keep' });
    expect(asked).toBe(false);
  });
  it('waits while a Pod still mounts the Secret', async () => {
    expect(await plan({ mountedByPod: async () => true })).toEqual({ addPurpose: true, consider: 'retry' });
  });
});
