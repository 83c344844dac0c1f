import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { managedIssuerConfigSecret } from './shoot-managed-issuer.js';
import { runChain } from '../chain.js';
import { ShootValidator } from './shoot-validator.js';
import type { KubeObject } from '../attributes.js';

const EU = 'eu-access-only';

/** The local CloudProfile whose region offers the `eu-access-only` restriction. */
function profile(offered = [EU]) {
  const p = example('local/cloudprofile.yaml');
  p.spec.regions[0].accessRestrictions = offered.map((name) => ({ name }));
  return p;
}

function seed(supported: string[]) {
  const s = example('50-seed.yaml');
  s.metadata!.name = 'local';
  s.spec.accessRestrictions = supported.map((name) => ({ name }));
  // The shoot defaults the example leaves commented out: a scheduled Shoot without networks needs them.
  s.spec.networks.shootDefaults = { pods: '100.96.0.0/11', services: '100.64.0.0/13' };
  return s;
}

/** Gardener's example Shoot with access restrictions (as stored: defaulted version and image). */
function shoot(restrictions: string[], seedName?: string) {
  const s = example('local/shoot.yaml');
  s.spec.kubernetes.version = '1.36.0';
  s.spec.provider.workers[0].machine.image = { name: 'local', version: '1.0.0' };
  if (restrictions.length) s.spec.accessRestrictions = restrictions.map((name) => ({ name }));
  if (seedName) s.spec.seedName = seedName;
  return s;
}

const validate = (object: KubeObject, old: KubeObject | undefined, objects: KubeObject[]) =>
  runChain(
    [ShootValidator],
    request(old ? 'UPDATE' : 'CREATE', object, old),
    staticListers(
      [example('local/project.yaml'), managedIssuerConfigSecret('discovery.local.gardener.cloud'), ...objects],
      async () => true,
    ),
  );

describe('ShootValidator: access restrictions', () => {
  it('accepts a restriction the region offers and the seed supports', async () => {
    expect(await validate(shoot([EU], 'local'), undefined, [profile(), seed([EU])])).toMatchObject({ allowed: true });
    expect(await validate(shoot([EU]), undefined, [profile()])).toMatchObject({ allowed: true });
  });

  it('refuses a restriction the region does not offer', async () => {
    expect(await validate(shoot(['other']), undefined, [profile()])).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'shoots.core.gardener.cloud "local" is forbidden: spec.accessRestrictions[0]: Unsupported value: "other": supported values: "eu-access-only"',
    });
  });

  it('refuses a restriction the seed does not support', async () => {
    expect(await validate(shoot([EU], 'local'), undefined, [profile(), seed([])])).toMatchObject({
      allowed: false,
      message:
        'shoots.core.gardener.cloud "local" is forbidden: spec.accessRestrictions[0]: Forbidden: access restriction "eu-access-only" is not supported by the seed',
    });
  });

  it('checks only a changed set of restrictions', async () => {
    const stored = shoot([EU], 'local');
    const changed = structuredClone(stored);
    changed.spec.provider.workers[0].maximum = 3;
    // The region stopped offering it: the Shoot keeps it as long as it does not change its restrictions.
    expect(await validate(changed, stored, [profile([]), seed([EU])])).toMatchObject({ allowed: true });
    const added = structuredClone(stored);
    added.spec.accessRestrictions.push({ name: 'other' });
    const result = await validate(added, stored, [profile([EU, 'other']), seed([EU])]);
    expect(!result.allowed && result.message).toContain(
      'spec.accessRestrictions[1]: Forbidden: access restriction "other" is not supported by the seed',
    );
  });
});
