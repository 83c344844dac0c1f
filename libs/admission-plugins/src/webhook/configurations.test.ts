// The webhook configurations: SeedRestriction's webhook sends exactly what the plugin checks (Gardener's rules), on its
// own path, with no selectors so that every seed client's request reaches it.
import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes } from '../attributes.js';
import { SeedRestriction } from '../authorizer/seed-restriction.js';
import { admissionWebhookConfigurations, SEED_RESTRICTION_RULES, WebhookPaths } from './configurations.js';

const gardenlet = { username: 'gardener.cloud:system:seed:a', groups: ['gardener.cloud:system:seeds'] };
const attributes = (
  operation: AdmissionAttributes['operation'],
  group: string,
  resource: string,
  userInfo = gardenlet,
): AdmissionAttributes => ({
  operation,
  kind: { group, version: 'v1', kind: 'X' },
  resource: { group, version: 'v1', resource },
  name: 'x',
  object: {},
  userInfo,
});

/** Every (operation, group, resource) the rules send. */
const sent = SEED_RESTRICTION_RULES.flatMap((r) =>
  r.operations.flatMap((op) =>
    r.apiGroups.flatMap((g) => r.resources.map((res) => [op as AdmissionAttributes['operation'], g, res] as const)),
  ),
);

describe('SeedRestriction webhook', () => {
  const validating = admissionWebhookConfigurations({ url: 'https://127.0.0.1:1' }, 'ca').find(
    (c) => c.kind === 'ValidatingWebhookConfiguration',
  )!;
  const webhook = validating.webhooks.find((w) => w.name === 'seed-restriction.gardener.cloud')!;

  it('is registered at /webhooks/admission/seedrestriction with failurePolicy Fail and no selectors', () => {
    expect(webhook).toBeDefined();
    expect(webhook.clientConfig).toMatchObject({ url: `https://127.0.0.1:1${WebhookPaths.seedRestriction}` });
    expect(WebhookPaths.seedRestriction).toBe('/webhooks/admission/seedrestriction');
    expect(webhook).toMatchObject({ failurePolicy: 'Fail', matchPolicy: 'Equivalent', sideEffects: 'None' });
    expect(webhook).not.toHaveProperty('namespaceSelector');
    expect(webhook).not.toHaveProperty('objectSelector');
    expect(webhook).not.toHaveProperty('matchConditions');
  });

  it('sends the core kinds seed clients create, which the chain’s project-namespace webhooks do not', () => {
    const keys = sent.map(([op, g, res]) => `${op} ${res}.${g}`);
    for (const k of [
      'CREATE secrets.',
      'CREATE serviceaccounts.',
      'CREATE leases.coordination.k8s.io',
      'CREATE certificatesigningrequests.certificates.k8s.io',
      'CREATE clusterrolebindings.rbac.authorization.k8s.io',
      'UPDATE seeds.core.gardener.cloud',
      'DELETE backupbuckets.core.gardener.cloud',
    ])
      expect(keys).toContain(k);
  });

  it('sends only requests the plugin handles for a seed client, and none of anyone else', () => {
    for (const [op, g, res] of sent) {
      expect(SeedRestriction.handles(attributes(op, g, res)), `${op} ${res}.${g}`).toBe(true);
      expect(SeedRestriction.handles(attributes(op, g, res, { username: 'alice', groups: [] }))).toBe(false);
    }
  });
});
