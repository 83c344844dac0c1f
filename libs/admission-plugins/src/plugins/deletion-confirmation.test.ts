import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runValidating } from '../chain.js';
import { DeletionConfirmation } from './deletion-confirmation.js';
import type { KubeObject } from '../attributes.js';

const confirm = (o: KubeObject): KubeObject => ({
  ...o,
  metadata: {
    ...o.metadata,
    annotations: { 'confirmation.gardener.cloud/deletion': 'true' } as Record<string, string>,
  },
});

describe('DeletionConfirmation', () => {
  it('refuses to delete a Shoot without the confirmation annotation', async () => {
    const shoot = example('local/shoot.yaml');
    expect(
      await runValidating([DeletionConfirmation], request('DELETE', undefined, shoot), staticListers([])),
    ).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'shoots.core.gardener.cloud "local" is forbidden: must have a "confirmation.gardener.cloud/deletion" annotation to delete',
    });
  });

  it('deletes a confirmed Project, refuses an unconfirmed one', async () => {
    const project = example('local/project.yaml');
    expect(
      (await runValidating([DeletionConfirmation], request('DELETE', undefined, confirm(project)), staticListers([])))
        .allowed,
    ).toBe(true);
    const refused = await runValidating(
      [DeletionConfirmation],
      request('DELETE', undefined, project),
      staticListers([]),
    );
    expect(!refused.allowed && refused.message).toBe(
      'projects.core.gardener.cloud "local" is forbidden: must have a "confirmation.gardener.cloud/deletion" annotation to delete',
    );
  });

  it('refuses a confirmed Shoot that is ignored', async () => {
    const shoot = confirm(example('local/shoot.yaml'));
    shoot.metadata!.annotations!['shoot.gardener.cloud/ignore'] = 'true';
    const result = await runValidating([DeletionConfirmation], request('DELETE', undefined, shoot), staticListers([]));
    expect(!result.allowed && result.message).toContain(
      'cannot delete shoot if shoot.gardener.cloud/ignore annotation is set',
    );
  });

  it('passes a DELETECOLLECTION only when every object is confirmed', async () => {
    const a = confirm(example('local/shoot.yaml'));
    const b = { ...example('local/shoot.yaml'), metadata: { name: 'b', namespace: 'garden-local' } };
    const collection = { ...request('DELETE', undefined, a), name: undefined };
    expect((await runValidating([DeletionConfirmation], collection, staticListers([a]))).allowed).toBe(true);
    expect((await runValidating([DeletionConfirmation], collection, staticListers([a, b]))).allowed).toBe(false);
  });

  it('reads the stored object when the request does not carry it', async () => {
    const stored = confirm(example('local/shoot.yaml'));
    const attributes = { ...request('DELETE', undefined, stored), oldObject: null };
    expect((await runValidating([DeletionConfirmation], attributes, staticListers([stored]))).allowed).toBe(true);
  });

  it('leaves other kinds alone', async () => {
    const seed = example('50-seed.yaml');
    expect(
      (await runValidating([DeletionConfirmation], request('DELETE', undefined, seed), staticListers([]))).allowed,
    ).toBe(true);
  });
});
