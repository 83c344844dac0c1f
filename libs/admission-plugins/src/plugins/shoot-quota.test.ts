import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runValidating } from '../chain.js';
import { ShootQuotaValidator, shootClaim } from './shoot-quota.js';
import type { KubeObject } from '../attributes.js';

const quota = (
  metrics: Record<string, string>,
  scope = { apiVersion: 'core.gardener.cloud/v1beta1', kind: 'Project' },
): KubeObject => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'Quota',
  metadata: { name: 'trial', namespace: 'garden-local' },
  spec: { scope, metrics },
});

const binding = (): KubeObject => ({
  ...example('local/credentialsbinding.yaml'),
  quotas: [{ name: 'trial', namespace: 'garden-local' }],
});

describe('ShootQuotaValidator', () => {
  it("claims the workers' maximum of cpu and memory from the machine type", () => {
    expect(shootClaim(example('local/shoot.yaml'), example('local/cloudprofile.yaml').spec)).toEqual({
      cpu: 2,
      memory: 2 * 8 * 1024 ** 3,
    });
  });

  it('refuses a Shoot that would exceed its project quota together with the others', async () => {
    const existing = { ...example('local/shoot.yaml'), metadata: { name: 'first', namespace: 'garden-local' } };
    const objects = [example('local/cloudprofile.yaml'), binding(), quota({ cpu: '3' }), existing];
    const result = await runValidating(
      [ShootQuotaValidator],
      request('CREATE', example('local/shoot.yaml')),
      staticListers(objects),
    );
    expect(!result.allowed && result.message).toBe(
      'shoots.core.gardener.cloud "local" is forbidden: quota limits exceeded. Unable to allocate further cpu',
    );
    const roomy = [example('local/cloudprofile.yaml'), binding(), quota({ cpu: '4' }), existing];
    expect(
      (await runValidating([ShootQuotaValidator], request('CREATE', example('local/shoot.yaml')), staticListers(roomy)))
        .allowed,
    ).toBe(true);
  });

  it('does not count against Shoots without quotas and does not recheck an unchanged claim', async () => {
    const objects = [example('local/cloudprofile.yaml'), example('local/credentialsbinding.yaml'), quota({ cpu: '0' })];
    expect(
      (
        await runValidating(
          [ShootQuotaValidator],
          request('CREATE', example('local/shoot.yaml')),
          staticListers(objects),
        )
      ).allowed,
    ).toBe(true);
    const limited = [example('local/cloudprofile.yaml'), binding(), quota({ cpu: '1' })];
    const shoot = example('local/shoot.yaml');
    expect(
      (await runValidating([ShootQuotaValidator], request('UPDATE', shoot, shoot), staticListers(limited))).allowed,
    ).toBe(true);
  });
});
