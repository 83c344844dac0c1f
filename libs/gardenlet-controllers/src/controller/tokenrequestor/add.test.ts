import { describe, expect, it } from 'vitest';
import { seedNamespace, tokenRequestorSecret } from './add.js';

const secret = (labels: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 's', namespace: 'garden', labels },
});
const garden = secret({
  'resources.gardener.cloud/purpose': 'token-requestor',
  'resources.gardener.cloud/class': 'garden',
});
const shoot = secret({
  'resources.gardener.cloud/purpose': 'token-requestor',
  'resources.gardener.cloud/class': 'shoot',
});

describe('gardenlet TokenRequestor wiring', () => {
  it('serves token-requestor Secrets of class garden only', () => {
    expect(tokenRequestorSecret({ type: 'create', object: garden })).toBe(true);
    expect(tokenRequestorSecret({ type: 'create', object: shoot })).toBe(false);
    expect(tokenRequestorSecret({ type: 'create', object: secret({}) })).toBe(false);
    expect(tokenRequestorSecret({ type: 'update', oldObject: garden, object: secret({}) })).toBe(true);
    expect(tokenRequestorSecret({ type: 'delete', object: garden })).toBe(false);
  });

  it("requests tokens in the seed's namespace in the garden", () => {
    expect(seedNamespace('local')).toBe('seed-local');
  });
});
