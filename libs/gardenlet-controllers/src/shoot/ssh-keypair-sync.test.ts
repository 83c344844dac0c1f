// The SSH keypair in the garden on fakes: the current keypair as `<shoot>.ssh-keypair`, the kept old one as
// `<shoot>.ssh-keypair.old`, both controlled by the Shoot; deleted (missing ones ignored) without SSH access.
import { describe, expect, it } from 'vitest';
import { ApiError } from '@gardener-ts/controller-runtime';
import {
  deleteSSHKeypairFromGarden,
  renderSSHKeypairGardenSecret,
  syncSSHKeypairToGarden,
} from './ssh-keypair-sync.js';

const shoot = { metadata: { name: 'foo', namespace: 'garden-dev', uid: 'uid-1' } };

describe('renderSSHKeypairGardenSecret', () => {
  it('is the project Secret controlled by the Shoot with the keypair data', () => {
    const secret = renderSSHKeypairGardenSecret(shoot, 'ssh-keypair', { id_rsa: 'a2V5', 'id_rsa.pub': 'cHVi' });
    expect(secret.metadata).toMatchObject({
      name: 'foo.ssh-keypair',
      namespace: 'garden-dev',
      labels: { 'gardener.cloud/role': 'ssh-keypair' },
      ownerReferences: [{ kind: 'Shoot', name: 'foo', uid: 'uid-1', controller: true }],
    });
    expect(secret.data).toEqual({ id_rsa: 'a2V5', 'id_rsa.pub': 'cHVi' });
  });

  it('needs the Shoot uid', () => {
    expect(() => renderSSHKeypairGardenSecret({ metadata: { name: 'foo' } }, 'ssh-keypair', {})).toThrow(/uid/);
  });
});

describe('syncSSHKeypairToGarden / deleteSSHKeypairFromGarden', () => {
  it('applies the current and, when kept, the old keypair', async () => {
    const applied: string[] = [];
    const garden = {
      async patch(_kind: unknown, key: { name: string }, patch: { type: string }) {
        applied.push(`${patch.type}:${key.name}`);
        return {};
      },
    };
    await syncSSHKeypairToGarden(garden as never, shoot, { data: { id_rsa: 'bmV3' } }, undefined);
    expect(applied).toEqual(['apply:foo.ssh-keypair']);
    await syncSSHKeypairToGarden(garden as never, shoot, { data: { id_rsa: 'bmV3' } }, { data: { id_rsa: 'b2xk' } });
    expect(applied.slice(1)).toEqual(['apply:foo.ssh-keypair', 'apply:foo.ssh-keypair.old']);
  });

  it('deletes both, ignoring missing ones', async () => {
    const deleted: string[] = [];
    const garden = {
      async delete(_kind: unknown, key: { name: string }) {
        deleted.push(key.name);
        if (key.name.endsWith('.old')) throw new ApiError(404, 'NotFound', 'not found');
      },
    };
    await deleteSSHKeypairFromGarden(garden as never, shoot);
    expect(deleted).toEqual(['foo.ssh-keypair', 'foo.ssh-keypair.old']);
  });
});
