// The strategy's Shoot validation through the full admission chain: the rotation operation rules of Gardener's
// validateShootOperation (libs/api validation/shoot/rotation.ts) refuse a rotation operation the phase does not allow.
import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { managedIssuerConfigSecret } from './shoot-managed-issuer.js';
import { runChain } from '../chain.js';
import { defaultPlugins } from './index.js';
import type { KubeObject } from '../attributes.js';

const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'local', namespace: 'garden-local' } };
const garden = (): KubeObject[] => [
  example('local/cloudprofile.yaml'),
  example('local/project.yaml'),
  example('local/credentialsbinding.yaml'),
  secret,
  managedIssuerConfigSecret('discovery.local.gardener.cloud'),
];

/** The example Shoot as stored after a successful creation, its CA rotation in `phase`. */
async function storedShoot(phase: string): Promise<KubeObject> {
  const created = await runChain(
    defaultPlugins,
    request('CREATE', example('local/shoot.yaml')),
    staticListers(garden()),
  );
  if (!created.allowed) throw new Error(created.message);
  const stored = structuredClone(created.object!);
  stored.status = {
    gardener: { id: 'g', name: 'gardenlet', version: '1' },
    hibernated: false,
    technicalID: 'shoot--local--local',
    uid: 'uid',
    lastOperation: {
      type: 'Reconcile',
      state: 'Succeeded',
      progress: 100,
      description: '',
      lastUpdateTime: '2026-01-01T00:00:00Z',
    },
    credentials: { rotation: { certificateAuthorities: { phase, lastInitiationTime: '2026-01-01T00:00:00Z' } } },
  };
  return stored;
}

function annotated(shoot: KubeObject, operation: string): KubeObject {
  const next = structuredClone(shoot);
  next.metadata = {
    ...next.metadata,
    annotations: { ...next.metadata?.annotations, 'gardener.cloud/operation': operation },
  };
  return next;
}

describe('rotation operations through the admission chain', () => {
  it('refuses rotate-ca-complete while the CA rotation is not Prepared, with the 422 of Gardener’s validation', async () => {
    const old = await storedShoot('Preparing');
    const result = await runChain(
      defaultPlugins,
      request('UPDATE', annotated(old, 'rotate-ca-complete'), old),
      staticListers(garden()),
    );
    expect(result).toMatchObject({ allowed: false, code: 422, reason: 'Invalid' });
    expect(!result.allowed && result.message).toBe(
      'Shoot.core.gardener.cloud "local" is invalid: metadata.annotations[gardener.cloud/operation]: Forbidden: ' +
        "cannot complete CA rotation if .status.credentials.rotation.certificateAuthorities.phase is not 'Prepared'",
    );
  });

  it('admits rotate-ca-complete once the CA rotation is Prepared', async () => {
    const old = await storedShoot('Prepared');
    const result = await runChain(
      defaultPlugins,
      request('UPDATE', annotated(old, 'rotate-ca-complete'), old),
      staticListers(garden()),
    );
    expect(result).toMatchObject({ allowed: true });
  });

  it('refuses rotate-ca-start while a CA rotation runs', async () => {
    const old = await storedShoot('Prepared');
    const result = await runChain(
      defaultPlugins,
      request('UPDATE', annotated(old, 'rotate-ca-start'), old),
      staticListers(garden()),
    );
    expect(!result.allowed && result.message).toContain(
      "cannot start CA rotation if .status.credentials.rotation.certificateAuthorities.phase is not 'Completed'",
    );
  });

  it('refuses a rotation start on a Shoot being created (no successful creation yet)', async () => {
    const result = await runChain(
      defaultPlugins,
      request('CREATE', annotated(example('local/shoot.yaml'), 'rotate-credentials-start')),
      staticListers(garden()),
    );
    expect(!result.allowed && result.message).toContain(
      'cannot start rotation of all credentials if shoot was not yet created successfully or is not ready for reconciliation',
    );
  });
});
